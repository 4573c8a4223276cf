import { expect, openPortal, seedHistory, shot, test } from "./fixtures";

// Every page on a phone-sized screen (nothing wider than the viewport; wide tables and code
// scroll inside their own box) and the main flows by keyboard alone.

const PAGES = [
  ["Endpoints", "endpoints"],
  ["Event catalog", "event-types"],
  ["Send sample", "send"],
  ["Delivery logs", "logs"],
  ["Failures", "failures"],
  ["Verify signatures", "verify"],
  ["Test URL", "test-url"],
  ["Integration guide", "guide"],
] as const;

test("every page fits a 390 px wide screen", async ({ page, operator }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const app = await operator.createApp("Mobile Co");
  const ep = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/a-rather-long-path/for/mobile/webhooks", description: "Phone", disabled: true });
  await seedHistory(operator, app.id, ep.id, [
    { eventType: "order.paid", status: "failed", codes: [500, 503], hoursAgo: 1 },
    { eventType: "order.created", status: "succeeded", codes: [200], hoursAgo: 2 },
  ]);
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  for (const [name, slug] of PAGES) {
    await page.getByRole("navigation").getByRole("link", { name, exact: true }).click();
    await page.waitForURL(`**/portal/${slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.waitForLoadState("networkidle");
    // Polled: during a client-side navigation the previous page is briefly still laid out.
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), { message: `${name} is wider than the screen` })
      .toBeLessThanOrEqual(0);
    await shot(page, `portal-mobile-${slug}`);
  }
});

test("the log and the inspector work with the keyboard alone", async ({ page, operator }) => {
  const app = await operator.createApp("Keyboard Co");
  const ep = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/kb", disabled: true });
  await seedHistory(operator, app.id, ep.id, [{ eventType: "order.paid", status: "failed", codes: [500, 502], hoursAgo: 1 }]);
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);

  // The skip link is the first stop and jumps to the content.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();

  await page.getByRole("navigation").getByRole("link", { name: "Delivery logs", exact: true }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Delivery logs", level: 1 })).toBeVisible();
  const inspect = page.getByRole("button", { name: /^Inspect delivery/ });
  await inspect.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Delivery inspector" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("list", { name: "Attempt timeline" })).toBeVisible();
  // Focus is inside the dialog, and Tab moves through it (the page behind is inert).
  const focusable = await dialog.locator("button, a[href], input, select, textarea, [tabindex='0']").count();
  for (let i = 0; i < focusable - 1; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  // Choose the first attempt from the timeline by keyboard.
  await dialog.getByRole("button", { name: /#1/ }).focus();
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("button", { name: /#1/ })).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test("an unknown portal address says so inside the portal, with the navigation and a way back", async ({ page, operator }) => {
  const app = await operator.createApp("Lost Co");
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  await page.goto("/portal/no-such-page");
  await expect(page.getByRole("heading", { name: "Page not found", level: 1 })).toBeVisible();
  // Each page has a title of its own (issue 13 item 14), on a first load as after navigating.
  await expect(page).toHaveTitle(/^Page not found · /);
  await expect(page.getByRole("navigation").getByRole("link", { name: "Delivery logs", exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Go to your endpoints" }).click();
  await expect(page.getByRole("heading", { name: "Endpoints", level: 1 })).toBeFocused();
  await expect(page).toHaveTitle(/^Endpoints · /);
});
