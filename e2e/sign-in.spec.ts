import { expect, test } from "@playwright/test";
import { SCREENSHOTS } from "./fixtures";
import { createOperator, signIn } from "./helpers/accounts";

// The operators' door: /sign-in with a password, a wrong password, sign-out; the front page.

test("an operator signs in with a password, sees who they are on the front page, and signs out", async ({ page, context }) => {
  const op = await createOperator({ role: "owner" });
  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
  // No SMTP in this run: the page says so instead of offering a form that cannot work.
  await expect(page.getByText("Email sign-in is not configured on this server")).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/sign-in.png`, fullPage: true });

  await signIn(page, op.email, op.password, "/");
  await expect(page.getByText(`Signed in as ${op.email}`)).toBeVisible();
  await expect(page.getByRole("link", { name: "Open the console" })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/home-signed-in.png`, fullPage: true });

  const cookie = (await context.cookies()).find((c) => c.name === "next-auth.session-token");
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Lax");
  expect(cookie?.value).toBeTruthy();

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("link", { name: "Sign in to the console" })).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === "next-auth.session-token")).toBeUndefined();

  // The cookie from before sign-out no longer opens anything.
  await context.addCookies([{ ...cookie!, expires: -1 }]);
  const res = await page.request.get("/api/v1/app");
  expect(res.status()).toBe(401);
});

test("a wrong password is refused with the same words as an unknown email", async ({ page }) => {
  const op = await createOperator({ role: "viewer" });
  await page.goto("/sign-in");
  const form = page.getByRole("form", { name: "Sign in with a password" });
  await form.getByLabel("Email").fill(op.email);
  await form.getByLabel("Password").fill("certainly-not-it");
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator('[role="alert"]:not(#__next-route-announcer__)')).toHaveText("Wrong email or password.");
  await expect(page).toHaveURL(/\/sign-in/);
  await page.screenshot({ path: `${SCREENSHOTS}/sign-in-wrong-password.png`, fullPage: true });

  await form.getByLabel("Email").fill(`nobody-${Date.now()}@e2e.herald.test`);
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator('[role="alert"]:not(#__next-route-announcer__)')).toHaveText("Wrong email or password.");
});

test("the front page links both doors, the docs, the OpenAPI document, and shows version and health", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Sign in to the console" })).toHaveAttribute("href", "/sign-in");
  await expect(page.getByRole("link", { name: "Sign in to your portal" })).toHaveAttribute("href", "/portal/sign-in");
  await expect(page.getByRole("link", { name: "/docs/webhooks" })).toBeVisible();
  await expect(page.getByRole("link", { name: "/api/v1/openapi.json" })).toBeVisible();
  await expect(page.getByText(/^Herald \d+\.\d+\.\d+$/)).toBeVisible();
  await expect(page.getByText("healthy", { exact: true })).toBeVisible();
});

test("a form used before the page's scripts have loaded waits for them: the password never goes into the address", async ({ page }) => {
  // A slow network: the page's HTML is there, its scripts come 2 s later. The submit button is
  // disabled until React handles the form; a click or Enter before then used to submit the form
  // natively, as a GET carrying the email and password in the URL (history, server logs).
  const op = await createOperator({ role: "viewer" });
  const seen: string[] = [];
  page.on("request", (r) => seen.push(r.url()));
  await page.route(/\/_next\/static\/chunks\//, async (route) => {
    await new Promise((r) => setTimeout(r, 2_000));
    await route.continue();
  });
  await page.goto("/sign-in?callbackUrl=%2F", { waitUntil: "commit" });
  const form = page.getByRole("form", { name: "Sign in with a password" });
  await form.getByLabel("Email").fill(op.email);
  await form.getByLabel("Password").fill(op.password);
  await form.getByLabel("Password").press("Enter");
  await expect(form.getByRole("button", { name: "Sign in" })).toBeDisabled();
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(`Signed in as ${op.email}`)).toBeVisible();
  expect(seen.filter((u) => u.includes("password="))).toEqual([]);
});
