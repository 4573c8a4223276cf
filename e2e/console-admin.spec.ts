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
  // No SMTP on the test server: the console hands over a one-time sign-in link instead, shown
  // in a read-only field (selectable by hand when the clipboard is refused) beside Copy.
  await expect(page.getByRole("button", { name: "Copy invite link" })).toBeVisible();
  const linkField = page.getByRole("textbox", { name: "Invite link" });
  await expect(linkField).toHaveAttribute("readonly", "");
  await expect(linkField).toHaveValue(/\/api\/auth\/callback\/email\?/);
  const role = page.getByLabel(`Role of ${invitee}`);
  await expect(role).toHaveValue("admin");
  const members = async () => (await operator.api("GET", "/environment/member")).body.data as { email: string; role: string }[];
  expect((await members()).find((m) => m.email === invitee)?.role).toBe("admin");
  await shot(page, "console-members", { doc: true });

  await role.selectOption("viewer");
  await expect.poll(async () => (await members()).find((m) => m.email === invitee)?.role).toBe("viewer");
  await expect(role).toHaveValue("viewer");

  // Removing asks first, saying what it does.
  await page.getByRole("button", { name: `Remove ${invitee}` }).click();
  const confirm = page.getByRole("dialog", { name: `Remove ${invitee}?` });
  await expect(confirm.getByText("They lose access to")).toBeVisible();
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByLabel(`Role of ${invitee}`)).toHaveCount(1);
  await page.getByRole("button", { name: `Remove ${invitee}` }).click();
  await confirm.getByRole("button", { name: "Remove member" }).click();
  await expect(page.getByLabel(`Role of ${invitee}`)).toHaveCount(0);
  expect((await members()).some((m) => m.email === invitee)).toBe(false);
  // The owner is still there; as the last owner (the API answers 409) they are offered neither
  // a role change nor Remove, and the row says why.
  await expect(page.getByText("The last owner: make someone else an owner first.")).toBeVisible();
  await expect(page.getByLabel(`Role of ${owner.email}`)).toHaveCount(0);
  await expect(page.getByRole("button", { name: `Remove ${owner.email}` })).toHaveCount(0);
});

test("an admin is offered only what the server lets an admin do; inviting a member again says their role stayed", async ({ page, operator }) => {
  const owner = await createUser({ role: "owner", environmentId: operator.environmentId });
  const admin = await createUser({ role: "admin", environmentId: operator.environmentId });
  const viewer = await createUser({ role: "viewer", environmentId: operator.environmentId });
  await signIn(page, admin.email, admin.password, "/console/members");
  const form = page.getByRole("form", { name: "Invite an operator" });
  // Only an owner grants the owner role: an admin's choices are admin and viewer.
  await expect(form.getByLabel("Role").locator("option")).toHaveText([/^admin/, /^viewer/]);
  await expect(page.getByLabel(`Role of ${viewer.email}`).locator("option")).toHaveText(["admin", "viewer"]);
  // The owner's row: no role select, no Remove, the reason instead.
  await expect(page.getByLabel(`Role of ${owner.email}`)).toHaveCount(0);
  await expect(page.getByRole("button", { name: `Remove ${owner.email}` })).toHaveCount(0);
  await expect(page.getByText("Only an owner can change or remove an owner.")).toBeVisible();

  // Inviting an existing member with another role leaves their role (200, role unchanged): said so.
  await form.getByLabel("Email").fill(viewer.email);
  await form.getByLabel("Role").selectOption("admin");
  await form.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByText(`${viewer.email} is already a member as viewer; change their role in the list`)).toBeVisible();
  expect(((await operator.api("GET", "/environment/member")).body.data as { email: string; role: string }[]).find((m) => m.email === viewer.email)?.role).toBe("viewer");

  // API keys act as owner: an admin gets the list and the reason, not the form.
  await nav(page, "API keys");
  await expect(page.getByRole("note").filter({ hasText: "Only owners create and revoke API keys: a key acts with the owner role. Your role here is admin." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create API key" })).toHaveCount(0);
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
  // Two bad lines: both are named at once, not one per save.
  await origins.fill("https://dashboard.acme.example\nhttps://acme.example/embed\nhttps://*.acme.example");
  await embedding.getByRole("button", { name: "Save embedding origins" }).click();
  await expect(embedding.getByRole("alert")).toContainText("is more than an origin");
  await expect(embedding.getByRole("alert")).toContainText("has a wildcard");
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
    await expect(viewerPage.getByLabel("Pick the accent colour")).toBeDisabled();
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
