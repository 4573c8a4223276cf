import type { Page } from "@playwright/test";
import { createEnvironment } from "@/lib/environments/ensure-environment";
import { createApiKey } from "@/lib/environments/api-keys";
import { startReceiver } from "../test/helpers/receiver";
import { createOperator as createUser, signIn } from "./helpers/accounts";
import { call, expect, seedHistory, serverUrl, shot, test, until } from "./fixtures";

// The operator console: an owner signs in with a password and works through every page (overview,
// applications, an application's logs and portal access, the catalog editor, API keys,
// settings); a viewer sees the same and can change nothing, the server refusing what the UI
// hides. Screenshots of each page are kept in docs/screenshots/.

/** A console call with the page's session cookie, the way the console's own fetches go. */
const consoleCall = (page: Page, method: string, path: string, environmentId: string, body?: unknown) =>
  page.request.fetch(`${serverUrl()}/api/v1${path}`, {
    method,
    headers: { "x-herald-environment": environmentId, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    ...(body !== undefined ? { data: JSON.stringify(body) } : {}),
  });

test("an operator signs in and works through the console", async ({ page, operator, context }) => {
  test.setTimeout(180_000);
  const receiver = await startReceiver();
  try {
    const app = await operator.createApp("Acme Corp");
    await operator.createApp("Globex");
    // Subscribed to a type not published here, so the seeded history is its only traffic.
    const ep = await operator.createEndpoint(app.id, { url: receiver.url, description: "Orders", filterTypes: ["invoice.legacy_sent"] });
    await seedHistory(operator, app.id, ep.id, [
      { eventType: "order.created", status: "succeeded", codes: [200], hoursAgo: 0.2 },
      { eventType: "order.created", status: "succeeded", codes: [200], hoursAgo: 0.3 },
      { eventType: "order.paid", status: "failed", codes: [500, 500, 500], hoursAgo: 0.4 },
      { eventType: "order.paid", status: "succeeded", codes: [503, 200], hoursAgo: 3 },
      { eventType: "order.created", status: "failed", codes: [500], hoursAgo: 6 },
      // Retrying after a 500, its next attempt an hour away: failing now.
      { eventType: "order.created", status: "pending", codes: [500], hoursAgo: 1 },
    ]);
    const owner = await createUser({ role: "owner", environmentId: operator.environmentId, name: "Olive Owner" });

    await signIn(page, owner.email, owner.password);
    await expect(page).toHaveURL(/\/console$/);
    await expect(page).toHaveTitle("Overview · Herald console");
    await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
    await expect(page.getByText("Success rate, 24 h")).toBeVisible();
    // Label and counts read apart ("Last hour: 2 ok · …", not "Last hour2 ok").
    await expect(page.getByTestId("outcome-counts").first()).toHaveText(/^Last hour: \d+ ok · \d+ dead · /);
    await expect(page.getByRole("img", { name: /Deliveries per hour, last 24 hours/ })).toBeVisible();
    const failing = page.getByRole("region", { name: /Most failing endpoints/ });
    await expect(failing.getByRole("link", { name: receiver.url })).toBeVisible();
    await shot(page, "console-overview", { doc: true });

    // Applications: both, newest first, with their 24 h success rate; search narrows.
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Applications" }).click();
    await expect(page.getByRole("heading", { name: "Applications", level: 1 })).toBeVisible();
    const rows = page.getByRole("table", { name: "Applications" }).getByRole("row");
    await expect(rows.nth(1)).toContainText("Globex");
    await expect(rows.nth(2)).toContainText("Acme Corp");
    await expect(rows.nth(2)).toContainText(/\d+(\.\d)?%/);
    // What finished in 24 h, what is failing now, and what the rate is of.
    await expect(rows.nth(2)).toContainText("3 delivered · 2 dead");
    await expect(rows.nth(2)).toContainText("1 failing");
    await expect(rows.nth(2).getByRole("cell").nth(4)).toHaveText("60.0%of 5 finished");
    await expect(rows.nth(1)).toContainText("0 delivered");
    await expect(rows.nth(1)).not.toContainText("failing");
    await shot(page, "console-applications", { doc: true });
    await page.getByRole("searchbox", { name: "Search applications" }).fill("acme");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(rows).toHaveCount(2);
    await page.getByRole("link", { name: "Acme Corp" }).click();

    // The application: endpoints, then its delivery log and the inspector with retry/replay.
    await expect(page.getByRole("heading", { name: "Acme Corp", level: 1 })).toBeVisible();
    await expect(page.getByRole("list", { name: "Endpoints" })).toContainText(receiver.url);
    await page.getByRole("tab", { name: "Delivery logs" }).click();
    const logRows = page.getByRole("table").getByRole("row");
    await expect(logRows.nth(1)).toBeVisible();
    await shot(page, "console-application-logs", { doc: true });
    await logRows.filter({ hasText: "order.paid" }).first().click();
    const inspector = page.getByRole("dialog", { name: "Delivery inspector" });
    await expect(inspector).toBeVisible();
    await expect(inspector.getByRole("button", { name: /Retry/ }).first()).toBeEnabled();
    await shot(page, "console-attempt-inspector", { doc: true });
    await inspector.getByRole("button", { name: "Close" }).click();

    // Portal access: a read-only link with its iframe snippet, opened as the customer sees it.
    await page.getByRole("tab", { name: "Portal access" }).click();
    await page.getByLabel(/Read-only/).check();
    await page.getByRole("button", { name: "Generate portal link" }).click();
    const link = (await page.getByLabel("Portal link", { exact: true }).textContent())!;
    expect(link).toMatch(/\/portal\?env=env_\w+#key=hpt_/);
    await expect(page.getByText(`src="${link}"`)).toBeVisible();
    await shot(page, "console-portal-link", { doc: true });
    const portal = await context.newPage();
    await portal.goto(link);
    await portal.waitForURL(/\/portal\/endpoints$/);
    await expect(portal.getByRole("heading", { name: "Endpoints", level: 1 })).toBeVisible();
    await expect(portal.getByText("Read-only", { exact: true })).toBeVisible();
    await expect(portal.getByText(receiver.url)).toBeVisible();
    await portal.close();

    // Event catalog: a new type with a schema checked as it is typed and its example.
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Event catalog" }).click();
    await expect(page.getByRole("heading", { name: "Event catalog", level: 1 })).toBeVisible();
    await page.getByRole("button", { name: "New event type" }).click();
    const editor = page.getByRole("form", { name: "New event type" });
    await editor.getByLabel("Name").fill("invoice.sent");
    await editor.getByLabel("Description").fill("An invoice went out to the customer, with its `invoice_id`. **[Schema notes](https://docs.example.com/invoices)**");
    const schema = editor.getByLabel("JSON Schema of version 1");
    await schema.fill('{ "type": "object", "properties": { "invoice_id": { "type": "strnig" } } }');
    await expect(editor.getByText(/Not a valid JSON Schema/)).toBeVisible();
    await expect(editor.getByRole("button", { name: "Create event type" })).toBeDisabled();
    await schema.fill('{ "type": "object", "required": ["invoice_id"], "properties": { "invoice_id": { "type": "string", "examples": ["inv_42"] }, "total": { "type": "integer" } }');
    await expect(editor.getByText(/Not valid JSON/)).toBeVisible();
    await schema.fill('{ "type": "object", "required": ["invoice_id"], "properties": { "invoice_id": { "type": "string", "examples": ["inv_42"] }, "total": { "type": "integer" } } }');
    await expect(editor.getByText("Valid JSON Schema.")).toBeVisible();
    await expect(editor.getByText('"invoice_id": "inv_42"')).toBeVisible();
    await editor.getByLabel("Feature flag").fill("billing-beta");
    await shot(page, "console-event-catalog", { doc: true });
    await editor.getByRole("button", { name: "Create event type" }).click();
    await expect(page.getByText("Saved invoice.sent.")).toBeVisible();
    // The list renders the description's Markdown as the portal does: code, not literal backticks.
    const listed = page.getByRole("list", { name: "Event types" }).getByRole("button", { name: /^invoice\.sent/ });
    await expect(listed.locator("code", { hasText: "invoice_id" })).toBeVisible();
    await expect(listed).not.toContainText("`");
    // A link, even inside bold, is its text there: the line is itself a button.
    await expect(listed.locator("strong", { hasText: "Schema notes" })).toHaveCount(1);
    await expect(listed.locator("a")).toHaveCount(0);
    const created = await operator.api("GET", "/event-type/invoice.sent");
    expect(created.body).toMatchObject({ description: "An invoice went out to the customer, with its `invoice_id`. **[Schema notes](https://docs.example.com/invoices)**", featureFlag: "billing-beta", schemas: { "1": { required: ["invoice_id"] } } });
    // Deprecate an existing one.
    await page.getByRole("list", { name: "Event types" }).getByRole("button", { name: /order\.created/ }).click();
    const edit = page.getByRole("form", { name: "Edit order.created" });
    await edit.getByLabel("Deprecated").check();
    await edit.getByRole("button", { name: "Save event type" }).click();
    await expect(page.getByText("Saved order.created.")).toBeVisible();
    expect((await operator.api("GET", "/event-type/order.created")).body.deprecated).toBe(true);

    // API keys: created and shown once, working, then revoked and refused.
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "API keys" }).click();
    await page.getByLabel("New key's name").fill("CI deploys");
    await page.getByRole("button", { name: "Create API key" }).click();
    const key = (await page.getByLabel("New API key").textContent())!;
    expect(key).toMatch(/^hk_/);
    expect((await call("GET", "/app", key)).status).toBe(200);
    await shot(page, "console-api-keys", { doc: true });
    await page.getByRole("button", { name: "I have stored it" }).click();
    await page.reload();
    await expect(page.getByText(key)).toHaveCount(0);
    await page.getByRole("button", { name: "Revoke CI deploys" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
    await expect(page.getByRole("row", { name: /CI deploys/ }).getByText("Revoked")).toBeVisible();
    await until(async () => (await call("GET", "/app", key)).status === 401, "the revoked key refused", 30, 500);

    // Settings: the environment's retry schedule.
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Settings" }).click();
    await page.getByLabel("Delays between attempts").fill("10s, 1m, 10m");
    await page.getByRole("button", { name: "Save retry schedule" }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
    expect((await operator.api("GET", "/environment/settings")).body.retrySchedule).toEqual([10, 60, 600]);
    await shot(page, "console-settings", { doc: true });
  } finally {
    await receiver.close();
  }
});

test("a viewer sees everything and can change nothing; the server refuses what the page hides", async ({ page, operator }) => {
  const app = await operator.createApp("Viewer Co");
  const viewer = await createUser({ role: "viewer", environmentId: operator.environmentId });
  await signIn(page, viewer.email, viewer.password, "/console/applications");
  await expect(page).toHaveURL(/\/console\/applications$/);
  await expect(page.getByText("Viewer", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Viewer Co" })).toBeVisible();
  await expect(page.getByRole("button", { name: "New application" })).toHaveCount(0);
  await shot(page, "console-viewer-applications", { doc: true });

  await page.goto("/console/event-types");
  await expect(page.getByRole("button", { name: "New event type" })).toHaveCount(0);
  await page.getByRole("list", { name: "Event types" }).getByRole("button", { name: /order\.created/ }).click();
  await expect(page.getByLabel("Description")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save event type" })).toHaveCount(0);

  await page.goto("/console/api-keys");
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create API key" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);

  // The session reads, and every write is a 403 whatever the page shows.
  const env = operator.environmentId;
  expect((await consoleCall(page, "GET", "/environment/overview", env)).status()).toBe(200);
  expect((await consoleCall(page, "GET", `/app/${app.id}`, env)).status()).toBe(200);
  expect((await consoleCall(page, "POST", "/environment/api-key", env, { name: "sneaky" })).status()).toBe(403);
  expect((await consoleCall(page, "PATCH", "/environment/settings", env, { retrySchedule: [5] })).status()).toBe(403);
  expect((await consoleCall(page, "POST", "/event-type", env, { name: "sneaky.event", description: "x" })).status()).toBe(403);
  expect((await consoleCall(page, "POST", `/auth/app-portal-access/${app.id}`, env, {})).status()).toBe(403);
  expect((await consoleCall(page, "DELETE", `/app/${app.id}`, env)).status()).toBe(403);
  expect((await operator.api("GET", `/app/${app.id}`)).status).toBe(200);
});

test("signed out, console pages go to sign-in and back; another environment's ids are not found", async ({ page, operator }) => {
  await page.goto("/console/applications?q=acme");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fconsole%2Fapplications%3Fq%3Dacme$/);
  expect((await page.request.get(`${serverUrl()}/api/v1/environment/overview`)).status()).toBe(401);

  // An owner of environment A, trying B's ids and B's environment id.
  const other = await createEnvironment("console other");
  const { key: otherKey } = await createApiKey(other.id, "other");
  const otherApp = (await call("POST", "/app", otherKey, { name: "Not yours" })).body as { id: string };
  const owner = await createUser({ role: "owner", environmentId: operator.environmentId });
  await signIn(page, owner.email, owner.password, "/console/applications?q=acme");
  await expect(page).toHaveURL(/\/console\/applications\?q=acme$/);
  expect((await consoleCall(page, "GET", `/app/${otherApp.id}`, operator.environmentId)).status()).toBe(404);
  expect((await consoleCall(page, "GET", "/environment/overview", other.id)).status()).toBe(404);
  await page.goto(`/console/applications/${otherApp.id}`);
  await expect(page.getByText("Could not load this application")).toBeVisible();
});
