import { expect, openPortal, serverUrl, test } from "./fixtures";

// public/: the favicon and the logo. Every page links the SVG favicon (the portal included, whose
// favicon used to 404), /favicon.ico answers too, and nothing the portal loads is missing.

test("the portal links a favicon that loads, and loads nothing that 404s", async ({ page, operator }) => {
  const missing: string[] = [];
  page.on("response", (r) => {
    if (r.status() === 404) missing.push(r.url());
  });
  const app = await operator.createApp("Assets Co");
  await openPortal(page, (await operator.portalLink(app.id)).url);

  const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(icon).toBeTruthy();
  const res = await page.request.get(new URL(icon!, serverUrl()).toString());
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("image/svg+xml");
  // Browsers and crawlers that do not read the link ask for /favicon.ico.
  const ico = await page.request.get(`${serverUrl()}/favicon.ico`);
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toContain("image/svg+xml");
  expect(missing).toEqual([]);
});

test("the home page shows the logo", async ({ page }) => {
  await page.goto("/");
  const logo = page.getByRole("img", { name: "Herald" });
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
});
