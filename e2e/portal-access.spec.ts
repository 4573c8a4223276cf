import { call, expect, openPortal, shot, test } from "./fixtures";

// Opening the portal from a magic link: the key leaves the address bar at once, the session
// survives a reload of the tab, and every way a link or session can be unusable gets a clear
// message. No cookie is ever set.

test("a magic link opens the portal, drops the key from the URL and history, and survives a reload", async ({ page, operator }) => {
  const app = await operator.createApp("Access Co");
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  expect(page.url()).not.toContain("#");
  expect(page.url()).not.toContain(link.token);
  expect(await page.evaluate(() => window.location.hash)).toBe("");
  // Going back does not bring the key back: it was replaced, not pushed.
  expect(await page.evaluate(() => window.history.length)).toBeLessThanOrEqual(2);
  await expect(page.getByText("Access Co")).toBeVisible();
  expect(await page.context().cookies()).toEqual([]);

  await page.reload();
  await expect(page.getByRole("heading", { name: "Endpoints", level: 1 })).toBeVisible();
  await expect(page.getByText("Access Co")).toBeVisible();
  await shot(page, "portal-endpoints-empty");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "You have signed out" })).toBeVisible();
  expect(await page.context().cookies()).toEqual([]);
});

test("an invalid, an expired and a revoked link each say what happened", async ({ page, operator }) => {
  const app = await operator.createApp("Links Co");

  await page.goto("/portal#key=hpt_this-is-not-a-real-token");
  await expect(page.getByRole("heading", { name: "This portal link is not valid" })).toBeVisible();
  expect(page.url()).not.toContain("hpt_");
  await shot(page, "portal-link-invalid");

  const expiring = await operator.portalLink(app.id, { expiry: 60 });
  const { db } = await import("@/lib/db");
  const { hashToken } = await import("@/lib/crypto/tokens");
  await db.portalToken.update({ where: { hash: hashToken(expiring.token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
  await page.goto(expiring.url);
  await expect(page.getByRole("heading", { name: "This portal link has expired" })).toBeVisible();
  await shot(page, "portal-link-expired");

  const revoked = await operator.portalLink(app.id);
  expect((await operator.api("POST", `/auth/app/${app.id}/expire-all`)).status).toBe(204);
  await page.goto(revoked.url);
  await expect(page.getByRole("heading", { name: "This portal link was revoked" })).toBeVisible();
  await shot(page, "portal-link-revoked");

  // The tab remembers why: a reload says the same.
  await page.reload();
  await expect(page.getByRole("heading", { name: "This portal link was revoked" })).toBeVisible();
  await page.evaluate(() => sessionStorage.clear());
  await page.goto("/portal");
  await expect(page.getByRole("heading", { name: "Open the portal from your link" })).toBeVisible();
});

test("revoking access while the portal is open ends the session with a clear message", async ({ page, operator }) => {
  const app = await operator.createApp("Revoke Co");
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  expect((await operator.api("POST", `/auth/app/${app.id}/expire-all`)).status).toBe(204);
  const revoked = page.getByRole("heading", { name: "Portal access was revoked" });
  // Navigating makes the portal ask the API again. It may find out first by itself (a background
  // refresh answered 401), and then the navigation it replaced is gone: either way, the message.
  const navigate = page
    .getByRole("navigation")
    .getByRole("link", { name: "Delivery logs", exact: true })
    .click()
    .catch(() => undefined);
  await Promise.race([navigate, revoked.waitFor()]);
  await expect(revoked).toBeVisible();
  await shot(page, "portal-session-revoked");
});

test("an expired session says so, and the portal API refuses it", async ({ page, operator }) => {
  const app = await operator.createApp("Expiry Co");
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  await page.waitForLoadState("networkidle");
  const session = await page.evaluate(() => JSON.parse(sessionStorage.getItem("herald.portal.session") ?? "{}").session as string);
  expect(session).toMatch(/^hps_/);
  const { db } = await import("@/lib/db");
  const { hashToken } = await import("@/lib/crypto/tokens");
  await db.portalSession.update({ where: { hash: hashToken(session) }, data: { expiresAt: new Date(Date.now() - 1000) } });
  // The link token is kept in memory only: a reload cannot renew, so the user is told to reopen the link.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Your portal session has expired" })).toBeVisible();
  await shot(page, "portal-session-expired");
  const r = await call("GET", `/app/${app.id}/endpoint`, session);
  expect(r.status).toBe(401);
  expect(r.body.code).toBe("portal_session_expired");
});
