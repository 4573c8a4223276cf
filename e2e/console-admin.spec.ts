import type { Page } from "@playwright/test";
import { createOperator as createUser, signIn, uniqueEmail } from "./helpers/accounts";
import { expect, serverUrl, shot, test } from "./fixtures";

// The console's administration pages, which e2e/console.spec.ts (overview, applications,
// catalog, API keys, the retry schedule) leaves out: Members (invite with a role, change the
// role, remove), Operational webhooks (add, list, delete) and the environment settings for
// embedding the portal and branding it, checked through the API and on the portal itself; and
// the same settings read-only for a viewer, the server refusing their PATCH. Screenshots go to
// docs/screenshots/ like console.spec.ts's.

const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Console" }).getByRole("link", { name }).click();

test("an owner invites an operator with a role, changes the role and removes them", async ({ page, operator }) => {
  const owner = await createUser({ role: "owner", environmentId: operator.environmentId });
  await signIn(page, owner.email, owner.password, "/console/members");
  await expect(page.getByRole("heading", { name: "Members", level: 1 })).toBeVisible();

  const invitee = uniqueEmail("invited");
  const form = page.getByRole("form", { name: "Invite an operator" });
  await form.getByLabel("Email").fill(invitee);
  await form.getByLabel("Role").selectOption("admin");
  await form.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByText(`${invitee} is a member (admin)`)).toBeVisible();
  // No SMTP on the test server: the console hands over a one-time sign-in link instead.
  await expect(page.getByRole("button", { name: "Copy invite link" })).toBeVisible();
  const role = page.getByLabel(`Role of ${invitee}`);
  await expect(role).toHaveValue("admin");
  const members = async () => (await operator.api("GET", "/environment/member")).body.data as { email: string; role: string }[];
  expect((await members()).find((m) => m.email === invitee)?.role).toBe("admin");
  await shot(page, "console-members", { doc: true });

  await role.selectOption("viewer");
  await expect.poll(async () => (await members()).find((m) => m.email === invitee)?.role).toBe("viewer");
  await expect(role).toHaveValue("viewer");

  await page.getByRole("button", { name: `Remove ${invitee}` }).click();
  await expect(page.getByLabel(`Role of ${invitee}`)).toHaveCount(0);
  expect((await members()).some((m) => m.email === invitee)).toBe(false);
  // The owner is still there (the last owner cannot be removed).
  await expect(page.getByLabel(`Role of ${owner.email}`)).toHaveValue("owner");
});

test("an owner adds an operational endpoint, sees it listed and deletes it", async ({ page, operator }) => {
  const owner = await createUser({ role: "owner", environmentId: operator.environmentId });
  await signIn(page, owner.email, owner.password, "/console");
  await nav(page, "Operational webhooks");
  await expect(page.getByRole("heading", { name: "Operational webhooks", level: 1 })).toBeVisible();
  await expect(page.getByText("No operational endpoints")).toBeVisible();

  const form = page.getByRole("form", { name: "New operational endpoint" });
  // A URL Herald will not deliver to is refused by the server, with the reason under the field.
  await form.getByLabel("Endpoint URL").fill("http://10.0.0.1/ops");
  await form.getByRole("button", { name: "Add operational endpoint" }).click();
  await expect(form.getByRole("alert")).toBeVisible();
  await form.getByLabel("Endpoint URL").fill("https://ops.example.com/herald");
  await form.getByLabel("Description").fill("On-call pager");
  await form.getByLabel("endpoint.disabled").check();
  await form.getByRole("button", { name: "Add operational endpoint" }).click();

  const list = page.getByRole("list", { name: "Operational endpoints" });
  await expect(list.getByText("https://ops.example.com/herald")).toBeVisible();
  await expect(list.getByText(/On-call pager · endpoint\.disabled/)).toBeVisible();
  const listed = (await operator.api("GET", "/operational-webhook/endpoint")).body.data as { url: string; filterTypes: string[] | null }[];
  expect(listed).toEqual([expect.objectContaining({ url: "https://ops.example.com/herald", filterTypes: ["endpoint.disabled"] })]);
  await shot(page, "console-operational-webhooks", { doc: true });

  await list.getByRole("button", { name: "Delete https://ops.example.com/herald" }).click();
  await expect(page.getByText("No operational endpoints")).toBeVisible();
  expect((await operator.api("GET", "/operational-webhook/endpoint")).body.data).toEqual([]);
});

test("an owner sets the portal's embedding origins and branding; the portal follows; a viewer only reads them", async ({ page, operator, browser }) => {
  const owner = await createUser({ role: "owner", environmentId: operator.environmentId });
  await signIn(page, owner.email, owner.password, "/console/settings");
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();

  // Embedding origins: a bad entry is named by the server, a good list is stored as browsers compare it.
  const embedding = page.getByRole("form", { name: "Portal embedding" });
  const origins = embedding.getByLabel("Origins allowed to embed the portal");
  await origins.fill("https://dashboard.acme.example\nhttps://acme.example/embed");
  await embedding.getByRole("button", { name: "Save embedding origins" }).click();
  await expect(embedding.getByRole("alert")).toContainText("is more than an origin");
  await origins.fill("https://Dashboard.Acme.example/\nhttp://127.0.0.3:8080");
  await embedding.getByRole("button", { name: "Save embedding origins" }).click();
  await expect(embedding.getByText("Saved.")).toBeVisible();
  await expect(origins).toHaveValue("https://dashboard.acme.example\nhttp://127.0.0.3:8080");
  await expect(embedding.getByText("frame-ancestors 'self' http://127.0.0.2:* https://dashboard.acme.example http://127.0.0.3:8080")).toBeVisible();
  const link = await operator.portalLink((await operator.createApp("Branded Co")).id);
  const csp = (await fetch(link.url.split("#")[0]!)).headers.get("content-security-policy");
  expect(csp).toBe("frame-ancestors 'self' http://127.0.0.2:* https://dashboard.acme.example http://127.0.0.3:8080");

  // Branding: a bad colour is named under its field; then name, logo, accent and theme.
  const branding = page.getByRole("form", { name: "Portal branding" });
  await branding.getByLabel("Accent colour", { exact: true }).fill("teal");
  await branding.getByRole("button", { name: "Save branding" }).click();
  await expect(branding.getByRole("alert")).toContainText("#rrggbb");
  await branding.getByLabel("Display name").fill("Acme Cloud");
  await branding.getByLabel("Logo URL").fill("data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAxNiAxNiI+PGNpcmNsZSBjeD0iOCIgY3k9IjgiIHI9IjgiIGZpbGw9IiMwZjc2NmUiLz48L3N2Zz4=");
  await branding.getByLabel("Accent colour", { exact: true }).fill("#0f766e");
  await branding.getByLabel("Theme").selectOption("dark");
  await branding.getByRole("button", { name: "Save branding" }).click();
  await expect(branding.getByText("Saved.")).toBeVisible();
  await expect(branding.getByText("Saved accent")).toBeVisible();
  const stored = (await operator.api("GET", "/environment/settings")).body.portalBranding;
  expect(stored).toMatchObject({ displayName: "Acme Cloud", accentColor: "#0f766e", accentTextColor: "#ffffff", theme: "dark" });
  await shot(page, "console-settings-portal", { doc: true });

  // The portal of the environment's applications carries it.
  const portalPage = await page.context().newPage();
  await portalPage.goto(link.url);
  await expect(portalPage.getByRole("heading", { name: "Endpoints", level: 1 })).toBeVisible();
  await expect(portalPage.getByRole("banner").getByText("Acme Cloud")).toBeVisible();
  await expect(portalPage.locator(".portal-root")).toHaveAttribute("data-theme", "dark");
  await portalPage.close();

  // Clearing a field removes that setting only.
  await branding.getByLabel("Display name").fill("");
  await branding.getByRole("button", { name: "Save branding" }).click();
  await expect.poll(async () => (await operator.api("GET", "/environment/settings")).body.portalBranding.displayName).toBeNull();
  expect((await operator.api("GET", "/environment/settings")).body.portalBranding.accentColor).toBe("#0f766e");

  // A viewer sees the same settings, disabled, and the server refuses their change.
  const viewer = await createUser({ role: "viewer", environmentId: operator.environmentId });
  const viewerContext = await browser.newContext({ baseURL: serverUrl() });
  const viewerPage = await viewerContext.newPage();
  try {
    await signIn(viewerPage, viewer.email, viewer.password, "/console/settings");
    await expect(viewerPage.getByText("you can read its settings but not change them")).toBeVisible();
    await expect(viewerPage.getByLabel("Origins allowed to embed the portal")).toHaveValue("https://dashboard.acme.example\nhttp://127.0.0.3:8080");
    await expect(viewerPage.getByLabel("Origins allowed to embed the portal")).toBeDisabled();
    await expect(viewerPage.getByLabel("Accent colour", { exact: true })).toHaveValue("#0f766e");
    await expect(viewerPage.getByLabel("Theme")).toBeDisabled();
    await expect(viewerPage.getByRole("button", { name: /^Save/ })).toHaveCount(0);
    await shot(viewerPage, "console-viewer-settings", { doc: true });
    const refused = await viewerPage.request.fetch(`${serverUrl()}/api/v1/environment/settings`, {
      method: "PATCH",
      headers: { "x-herald-environment": operator.environmentId, "content-type": "application/json" },
      data: JSON.stringify({ portalEmbedOrigins: ["https://evil.example"] }),
    });
    expect(refused.status()).toBe(403);
    expect((await operator.api("GET", "/environment/settings")).body.portalEmbedOrigins).toEqual(["https://dashboard.acme.example", "http://127.0.0.3:8080"]);
  } finally {
    await viewerContext.close();
  }
});
