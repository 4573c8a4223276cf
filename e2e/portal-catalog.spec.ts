import { expect, openPortal, shot, test } from "./fixtures";

// Event catalog: description, JSON schema, example payload (the schema's own, or generated from
// it), copy buttons, deprecated/archived markers, feature-flagged types only for flagged links.

test("shows each event type with schema, example, markers and copy buttons", async ({ page, operator, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const app = await operator.createApp("Catalog Co");
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  await page.getByRole("navigation").getByRole("link", { name: "Event catalog", exact: true }).click();

  const list = page.getByRole("list", { name: "Event types" });
  await expect(list.getByRole("button", { name: /invoice\.legacy_sent/ }).getByText("Deprecated")).toBeVisible();
  await expect(list.getByRole("button", { name: /customer\.retired/ }).getByText("Archived")).toBeVisible();
  await expect(list.getByRole("button", { name: /beta\.feature_used/ })).toHaveCount(0);

  // A generated example (no example in the schema).
  await list.getByRole("button", { name: /order\.created/ }).click();
  await expect(page.getByText("Generated from the schema (no example was given).")).toBeVisible();
  const example = page.getByRole("figure").filter({ hasText: "order.created · example" });
  await expect(example.locator("code")).toContainText('"order_id": "ord_e2e_1"');
  await expect(example.locator("code")).toContainText('"currency": "EUR"');
  await example.getByRole("button", { name: "Copy order.created example payload" }).click();
  await expect(example.getByRole("button", { name: /Copy order\.created example payload/ })).toContainText("Copied");
  expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual({ order_id: "ord_e2e_1", amount: 4200, currency: "EUR" });

  await page.getByRole("tab", { name: "JSON schema" }).click();
  const schema = page.getByRole("figure").filter({ hasText: "order.created · v1 schema" });
  await expect(schema.locator("code")).toContainText('"required"');
  await schema.getByRole("button", { name: /Copy order.created JSON schema/ }).click();
  expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toMatchObject({ type: "object", required: ["order_id", "amount"] });

  // The schema's own example wins when it has one.
  await list.getByRole("button", { name: /order\.paid/ }).click();
  await expect(page.getByText("The example given with the schema.")).toBeVisible();
  await expect(page.getByRole("figure").filter({ hasText: "order.paid · example" }).locator("code")).toContainText("ord_given_example");
  await shot(page, "portal-event-catalog");

  // Keyboard: tabs move with the arrow keys.
  await page.getByRole("tab", { name: "Example payload" }).last().focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "JSON schema" }).last()).toHaveAttribute("aria-selected", "true");
});

test("a link with a feature flag sees the event types behind it", async ({ page, operator }) => {
  const app = await operator.createApp("Beta Co");
  const link = await operator.portalLink(app.id, { featureFlags: ["beta"] });
  await openPortal(page, link.url);
  await page.getByRole("navigation").getByRole("link", { name: "Event catalog", exact: true }).click();
  await expect(page.getByRole("button", { name: /beta\.feature_used/ })).toBeVisible();
  await expect(page.getByRole("button", { name: /beta\.feature_used/ }).getByText("beta: beta")).toBeVisible();
});
