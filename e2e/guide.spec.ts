import { expect, openPortal, shot, test } from "./fixtures";

// The integration guide an operator links (/docs/webhooks) and its portal twin (/portal/guide):
// the delivery contract in explicit sentences, with this server's numbers.

test("the public guide states the contract, the retry schedule and the testing tools", async ({ page }) => {
  await page.goto("/docs/webhooks");
  await expect(page.getByRole("heading", { name: "Receiving webhooks", level: 1 })).toBeVisible();
  for (const fact of ["Delivery is at-least-once.", "Ordering is best effort.", "Retries follow a fixed schedule:", "Acknowledge with any 2xx within 15 seconds", "The dedup id is the webhook-id header"])
    await expect(page.getByText(fact, { exact: false }).first()).toBeVisible();
  const table = page.getByRole("table", { name: "Retry schedule" });
  await expect(table.getByRole("row")).toHaveCount(1 + 8 + 1); // header, 8 attempts, dead letter
  await expect(table).toContainText("5 min after attempt 2");
  for (const heading of ["Verify every signature", "The event catalog", "Troubleshooting and recovery", "Testing tools", "Decisions you should not have to guess"])
    await expect(page.getByRole("heading", { name: heading, level: 2 })).toBeVisible();
  await expect(page.getByText("No bubbling.")).toBeVisible();
  await expect(page.getByText(/node herald\.mjs listen --url http:\/\/127\.0\.0\.1:\d+/)).toBeVisible();
  await shot(page, "guide-public");
});

test("the portal guide shows the session's catalog", async ({ page, operator }) => {
  const app = await operator.createApp("Guide Co");
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  await page.getByRole("navigation").getByRole("link", { name: "Integration guide", exact: true }).click();
  await page.waitForURL("**/portal/guide");
  await expect(page.getByRole("heading", { name: "Integration guide", level: 1 })).toBeVisible();
  const types = page.getByRole("list", { name: "Event types" });
  await expect(types).toContainText("order.created");
  await expect(types).not.toContainText("beta.feature_used");
  await expect(page.getByRole("button", { name: "Download OpenAPI" })).toBeVisible();
  await shot(page, "guide-portal");
});
