import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, openPortal, seedHistory, test } from "./fixtures";

// axe-core over every portal page and dialog, in the light and the dark theme: no serious or
// critical violation (WCAG 2.1 A/AA rules, colour contrast included).

async function serious(page: Page, what: string) {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const bad = result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${what}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
  expect(bad, bad.join("\n")).toEqual([]);
}

for (const scheme of ["light", "dark"] as const) {
  test(`every page and dialog has no serious axe violation (${scheme})`, async ({ page, operator }) => {
    test.setTimeout(180_000);
    await page.emulateMedia({ colorScheme: scheme });
    const app = await operator.createApp(`Axe ${scheme} Co`);
    const ep = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/axe", description: "Axe", disabled: true });
    await seedHistory(operator, app.id, ep.id, [
      { eventType: "order.paid", status: "failed", codes: [500, 502], hoursAgo: 1 },
      { eventType: "order.created", status: "succeeded", codes: [200], hoursAgo: 2 },
    ]);
    const link = await operator.portalLink(app.id);
    await openPortal(page, link.url);
    const nav = page.getByRole("navigation", { name: "Portal" });
    await serious(page, "Endpoints");

    for (const [name, slug] of [
      ["Event catalog", "event-types"],
      ["Send sample", "send"],
      ["Delivery logs", "logs"],
      ["Failures", "failures"],
      ["Verify signatures", "verify"],
      ["Test URL", "test-url"],
      ["Integration guide", "guide"],
    ] as const) {
      await nav.getByRole("link", { name, exact: true }).click();
      await page.waitForURL(`**/portal/${slug}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await page.waitForLoadState("networkidle");
      await serious(page, name);
    }

    // Dialogs: the inspector (with an attempt selected) and its replay confirmation, range replay, export, retry all.
    await nav.getByRole("link", { name: "Delivery logs", exact: true }).click();
    await page.getByRole("button", { name: /^Inspect delivery of order\.paid/ }).click();
    const inspector = page.getByRole("dialog", { name: "Delivery inspector" });
    await expect(inspector.getByRole("list", { name: "Attempt timeline" })).toBeVisible();
    await inspector.getByRole("button", { name: /#1/ }).click();
    await serious(page, "Delivery inspector");
    await inspector.getByRole("button", { name: "Replay", exact: true }).click();
    await expect(page.getByRole("dialog", { name: "Replay this message?" })).toBeVisible();
    await serious(page, "Replay confirmation");
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Replay this message?" })).toBeHidden();
    await expect(inspector).toBeVisible();
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Replay these messages…" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await serious(page, "Range replay dialog");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Export these logs…" }).click();
    await expect(page.getByRole("dialog", { name: "Export these logs" })).toBeVisible();
    await serious(page, "Export dialog");
    await page.keyboard.press("Escape");
    // The multi-select filters, open.
    await page.getByRole("button", { name: /^Status / }).click();
    await expect(page.getByRole("group", { name: "Status", exact: true })).toBeVisible();
    await serious(page, "Status filter, open");
    await page.keyboard.press("Escape");

    await nav.getByRole("link", { name: "Failures", exact: true }).click();
    await page.getByRole("button", { name: /^Retry all/ }).first().click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await serious(page, "Retry all dialog");
    await page.keyboard.press("Escape");

    // An endpoint's page, the new-endpoint form and the delete dialog.
    await page.goto(`/portal/endpoints/${ep.id}`);
    await expect(page.getByRole("heading", { name: "Axe", level: 1 })).toBeVisible();
    await serious(page, "Endpoint page");
    await page.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await serious(page, "Delete dialog");
    await page.keyboard.press("Escape");
    await page.goto("/portal/endpoints/new");
    await expect(page.getByRole("heading", { name: "Add endpoint", level: 1 })).toBeVisible();
    await serious(page, "Add endpoint");
  });
}
