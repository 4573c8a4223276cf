import { expect, openPortal, seedHistory, shot, test } from "./fixtures";

// Plain language for no-code users: the private-address error names no server setting and
// nests no parentheses; terms like "Dead-lettered", "Circuit open" and "v1a" keep a one-line
// explanation on hover and keyboard focus; event descriptions render Markdown safely.

test("the private-address error is one plain sentence", async ({ page, operator }) => {
  const app = await operator.createApp("Plain Co");
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  await page.getByRole("link", { name: "Add endpoint" }).click();
  await page.getByLabel("Endpoint URL").fill("http://10.1.2.3/hook");
  const error = page.getByText(/non-public address/);
  await expect(error).toBeVisible();
  const text = (await error.textContent())!;
  expect(text).toContain("10.1.2.3");
  expect(text).toContain("public internet");
  expect(text).not.toMatch(/HERALD_|\([^)]*\(/);
});

test("terms explain themselves on hover and focus; Markdown descriptions render safely", async ({ page, operator }) => {
  await operator.api("POST", "/event-type", {
    name: "invoice.finalized",
    description:
      "Sent when `invoice.total` is **final**. See [the invoice guide](https://docs.example.com/invoices) or [this](javascript:alert(1)). <b>not markup</b>",
  });
  const app = await operator.createApp("Terms Co");
  const ep = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/terms", disabled: true, signing: "ed25519" });
  await seedHistory(operator, app.id, ep.id, [{ eventType: "order.paid", status: "failed", codes: [500, 500], hoursAgo: 1 }]);
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);

  // The catalog: code, bold and an https link rendered; the javascript: link and the HTML stay text.
  await page.getByRole("navigation").getByRole("link", { name: "Event catalog", exact: true }).click();
  const item = page.getByRole("listitem").filter({ hasText: "invoice.finalized" });
  await expect(item.locator("code", { hasText: "invoice.total" })).toBeVisible();
  await expect(item.locator("strong", { hasText: "final" })).toBeVisible();
  await expect(item.getByRole("link", { name: "the invoice guide" })).toHaveAttribute("href", "https://docs.example.com/invoices");
  await expect(item.getByRole("link", { name: "this" })).toHaveCount(0);
  await expect(item.getByText("<b>not markup</b>")).toBeVisible();
  await expect(item.locator("b")).toHaveCount(0);
  expect(await item.textContent()).not.toContain("`");
  await shot(page, "portal-catalog-markdown", { doc: true, fullPage: false });

  // Dead-lettered in the log: the explanation on keyboard focus, gone with Escape.
  await page.getByRole("navigation").getByRole("link", { name: "Delivery logs", exact: true }).click();
  const badge = page.getByRole("table").getByText("Dead-lettered");
  await badge.locator("xpath=ancestor::*[@tabindex='0'][1]").focus();
  const tip = page.getByRole("tooltip").filter({ hasText: "Herald stopped trying" });
  await expect(tip).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(tip).toBeHidden();
  // In the inspector, why it stopped, in words (not "exhausted").
  await page.getByRole("button", { name: /^Inspect delivery/ }).click();
  const dialog = page.getByRole("dialog", { name: "Delivery inspector" });
  await expect(dialog.getByText("All retries failed")).toBeVisible();
  await expect(dialog.getByText("exhausted")).toHaveCount(0);
  await page.keyboard.press("Escape");

  // v1a on the endpoint page, explained on hover.
  await page.goto(`/portal/endpoints/${ep.id}`);
  await page.getByText("v1a", { exact: true }).hover();
  await expect(page.getByRole("tooltip").filter({ hasText: "Ed25519 signature in the webhook-signature header" })).toBeVisible();
  await shot(page, "portal-term-tooltip", { doc: true, fullPage: false });
});
