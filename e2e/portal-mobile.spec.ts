import type { Page } from "@playwright/test";
import { expect, openPortal, seedHistory, shot, test } from "./fixtures";

// A 390 px phone: nothing on any portal page scrolls sideways (the document is never wider than
// the screen), the navigation wraps instead of cutting "Delivery logs", the log is a list of
// cards with Status and Inspect in view, and the event-type picker fits.

const WIDTH = 390;

async function fits(page: Page, what: string) {
  await page.waitForLoadState("networkidle");
  // Polled: during a client-side navigation the previous page is briefly still laid out.
  await expect
    .poll(() => page.evaluate(() => document.scrollingElement!.scrollWidth), { message: `${what} is wider than ${WIDTH} px` })
    .toBeLessThanOrEqual(WIDTH);
}

test("no portal page scrolls sideways at 390 px", async ({ page, operator }) => {
  await page.setViewportSize({ width: WIDTH, height: 844 });
  const app = await operator.createApp("Phone Co");
  // Long names: what made the picker and the table overflow.
  await operator.api("POST", "/event-type", {
    name: "subscription.renewal_payment_failed_after_final_retry",
    description: "A very long description of an event type that goes on and on to see that it wraps or truncates on a phone",
  });
  const ep = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/a-rather-long-path/for/mobile/webhooks/that-goes-on", description: "Phone", disabled: true });
  await seedHistory(operator, app.id, ep.id, [
    { eventType: "order.paid", status: "failed", codes: [500, 503], hoursAgo: 1 },
    { eventType: "order.created", status: "succeeded", codes: [200], hoursAgo: 2 },
  ]);
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);

  // Every navigation item is on screen (wrapped), none cut off.
  const nav = page.getByRole("navigation", { name: "Portal" });
  for (const link of await nav.getByRole("link").all()) {
    const box = (await link.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
  }
  await fits(page, "Endpoints");
  await shot(page, "portal-390-endpoints", { doc: true });

  for (const [name, slug] of [
    ["Event catalog", "event-types"],
    ["Send sample", "send"],
    ["Failures", "failures"],
    ["Verify signatures", "verify"],
    ["Test URL", "test-url"],
    ["Integration guide", "guide"],
  ] as const) {
    await nav.getByRole("link", { name, exact: true }).click();
    await page.waitForURL(`**/portal/${slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await fits(page, name);
  }

  // The event-type picker of the new-endpoint form.
  await page.goto("/portal/endpoints/new");
  await expect(page.getByRole("group", { name: "Event types" })).toBeVisible();
  await expect(page.getByText("subscription.renewal_payment_failed_after_final_retry")).toBeVisible();
  await fits(page, "Add endpoint");
  await shot(page, "portal-390-new-endpoint", { doc: true });

  // An endpoint's page.
  await page.goto(`/portal/endpoints/${ep.id}`);
  await expect(page.getByRole("heading", { name: "Phone", level: 1 })).toBeVisible();
  await fits(page, "Endpoint page");

  // The log: cards, each with its status and Inspect inside the screen.
  await nav.getByRole("link", { name: "Delivery logs", exact: true }).click();
  const cards = page.getByRole("list", { name: "Deliveries, newest first" }).getByRole("listitem");
  await expect(cards).toHaveCount(2);
  await expect(page.getByRole("table")).toBeHidden();
  for (const card of await cards.all()) {
    for (const el of [card.getByRole("button", { name: /^Inspect delivery/ }), card.getByText(/Dead-lettered|Succeeded/).first()]) {
      const box = (await el.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
    }
  }
  await fits(page, "Delivery logs");
  await shot(page, "portal-390-logs", { doc: true });
  await cards.first().getByRole("button", { name: /^Inspect delivery/ }).click();
  await expect(page.getByRole("dialog", { name: "Delivery inspector" })).toBeVisible();
  await fits(page, "the inspector");
  await shot(page, "portal-390-inspector", { doc: true, fullPage: false });
});
