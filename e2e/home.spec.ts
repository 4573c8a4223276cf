import { expect, test } from "@playwright/test";

test("the home page points operators to the API, the OpenAPI document and health", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Herald" })).toBeVisible();
  await expect(page.getByRole("link", { name: "/api/v1/openapi.json" })).toBeVisible();
  await page.screenshot({ path: "e2e/artifacts/screenshots/home.png", fullPage: true });
});
