import { expect, openPortal, seedHistory, shot, test } from "./fixtures";

// Branding and dark mode: an environment's portal shows the operator's name, logo and accent
// (set through PATCH /api/v1/environment/settings), in the theme it chose; "system" follows the
// visitor's prefers-color-scheme.

const LOGO =
  "data:image/svg+xml;base64," +
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="28" viewBox="0 0 96 28"><rect width="28" height="28" rx="6" fill="#0f766e"/><text x="34" y="20" font-family="sans-serif" font-size="16" font-weight="700" fill="#0f766e">Acme</text></svg>`,
  ).toString("base64");

/** Relative luminance of a computed `rgb(…)`/`oklch(…)` colour, read back through a canvas. */
async function luminanceOf(page: import("@playwright/test").Page, selector: string, prop: "backgroundColor" | "color") {
  return page.evaluate(
    ([sel, p]) => {
      const el = document.querySelector(sel)!;
      const c = document.createElement("canvas").getContext("2d")!;
      c.fillStyle = getComputedStyle(el)[p as "color"];
      c.fillRect(0, 0, 1, 1);
      const [r, g, b] = Array.from(c.getImageData(0, 0, 1, 1).data).map((v) => {
        const x = v / 255;
        return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    },
    [selector, prop] as const,
  );
}

test("follows the visitor's system theme by default", async ({ page, operator }) => {
  const app = await operator.createApp("System Theme Co");
  const ep = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/theme", description: "Orders", disabled: true });
  await seedHistory(operator, app.id, ep.id, [{ eventType: "order.paid", status: "succeeded", codes: [200], hoursAgo: 1 }]);
  const link = await operator.portalLink(app.id);
  await page.emulateMedia({ colorScheme: "light" });
  await openPortal(page, link.url);
  await expect(page.locator(".portal-root")).toHaveAttribute("data-theme", "system");
  expect(await luminanceOf(page, ".portal-root", "backgroundColor")).toBeGreaterThan(0.8);
  await expect(page.getByText("Webhooks", { exact: false }).first()).toBeVisible();
  await shot(page, "portal-theme-light", { doc: true });

  await page.emulateMedia({ colorScheme: "dark" });
  expect(await luminanceOf(page, ".portal-root", "backgroundColor")).toBeLessThan(0.05);
  expect(await luminanceOf(page, "h1", "color")).toBeGreaterThan(0.8);
  await shot(page, "portal-theme-dark", { doc: true });
});

test("shows the operator's name, logo and accent, and a forced theme wins over the system's", async ({ page, operator }) => {
  const set = await operator.api("PATCH", "/environment/settings", {
    portalBranding: { displayName: "Acme Cloud", logoUrl: LOGO, accentColor: "#0f766e", theme: "dark" },
  });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
  const app = await operator.createApp("Branded Co");
  await operator.createEndpoint(app.id, { url: "https://hooks.example.com/branded", description: "Orders" });
  const link = await operator.portalLink(app.id);
  await page.emulateMedia({ colorScheme: "light" });
  await openPortal(page, link.url);

  const header = page.getByRole("banner");
  await expect(header.getByText("Acme Cloud")).toBeVisible();
  await expect(header.locator("img")).toHaveAttribute("src", LOGO);
  await expect(header.locator("img")).toHaveJSProperty("naturalWidth", 96);
  await expect(page.locator(".portal-root")).toHaveAttribute("data-theme", "dark");
  expect(await luminanceOf(page, ".portal-root", "backgroundColor")).toBeLessThan(0.05);
  // The accent: on the primary action, with the text colour the server chose for contrast.
  const add = page.getByRole("link", { name: "Add endpoint" });
  await expect(add).toHaveCSS("background-color", "rgb(15, 118, 110)");
  await expect(add).toHaveCSS("color", "rgb(255, 255, 255)");
  await expect(page.getByRole("navigation").getByRole("link", { name: "Endpoints", exact: true })).toHaveCSS("border-bottom-color", "rgb(15, 118, 110)");
  await shot(page, "portal-branded-dark", { doc: true });

  // A light accent gets dark text; theme light is light even on a dark system.
  await operator.api("PATCH", "/environment/settings", { portalBranding: { accentColor: "#fde047", theme: "light" } });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await expect(page.locator(".portal-root")).toHaveAttribute("data-theme", "light");
  await expect(add).toHaveCSS("background-color", "rgb(253, 224, 71)");
  await expect(add).toHaveCSS("color", "rgb(0, 0, 0)");
  expect(await luminanceOf(page, ".portal-root", "backgroundColor")).toBeGreaterThan(0.8);
  await shot(page, "portal-branded-light", { doc: true });
});
