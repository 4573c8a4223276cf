import { expect, openPortal, shot, test } from "./fixtures";

// Verify signatures: copy-paste snippets in five languages with the endpoint's real header
// names and algorithm, and the three classic mistakes. (The Node and Python snippets are run
// against real deliveries in test/portal-snippets.integration.test.ts.)

test("shows snippets for the endpoint's algorithm and headers, with the three classic mistakes", async ({ page, operator, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const app = await operator.createApp("Verify Co");
  await operator.createEndpoint(app.id, { url: "https://hooks.example.com/hmac", disabled: true });
  const ed = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/ed", signing: "ed25519", disabled: true });
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  await page.getByRole("navigation").getByRole("link", { name: "Verify signatures", exact: true }).click();

  for (const m of ["Verify every request.", "Verify the raw body, before any JSON parser.", "Keep the webhook route out of session middleware."])
    await expect(page.getByText(m)).toBeVisible();
  await expect(page.getByText("webhook-id, webhook-timestamp, webhook-signature")).toBeVisible();

  const tabs = page.getByRole("tablist", { name: "Language" }).getByRole("tab");
  await expect(tabs).toHaveText(["Node.js", "Python", "Go", "Ruby", "PHP"]);
  const code = page.getByRole("tabpanel").getByRole("figure").locator("code");
  await expect(code).toContainText('headers["webhook-signature"]');
  await expect(code).toContainText("timingSafeEqual");
  await page.getByRole("tab", { name: "Python" }).click();
  await expect(code).toContainText("hmac.compare_digest");
  await expect(page.getByRole("tabpanel").getByText(/^Standard library only\./)).toBeVisible();
  await page.getByRole("tab", { name: "Python" }).press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Go" })).toHaveAttribute("aria-selected", "true");
  await expect(code).toContainText('header.Get("webhook-signature")');
  await page.getByRole("tab", { name: "Ruby" }).click();
  await expect(code).toContainText('request.env["HTTP_WEBHOOK_SIGNATURE"]');
  await page.getByRole("tab", { name: "PHP" }).click();
  await expect(code).toContainText("hash_equals");
  await page.getByRole("button", { name: "Copy PHP snippet" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("function verify_webhook");
  await shot(page, "portal-verify");

  // The ed25519 endpoint gets public-key snippets.
  await page.getByRole("combobox", { name: "For endpoint" }).selectOption(ed.id);
  await page.getByRole("tab", { name: "Node.js" }).click();
  await expect(code).toContainText('version === "v1a"');
  await expect(page.getByText("Ed25519 signature,")).toBeVisible();
});
