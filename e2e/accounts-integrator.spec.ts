import { spawn, type ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import type { ParsedMail } from "mailparser";
import Provider from "oidc-provider";
import { createApiKey } from "@/lib/environments/api-keys";
import { createEnvironment } from "@/lib/environments/ensure-environment";
import { freePort } from "../scripts/lib/isolated-run.mjs";
import { webCommand } from "../scripts/lib/processes.mjs";
import { requestJson } from "../test/helpers/http";
import { startSmtp, type Smtp } from "../test/helpers/smtp";
import { SCREENSHOTS } from "./fixtures";
import { createOperator, uniqueEmail } from "./helpers/accounts";

// Sign-in with what the shared e2e server has not configured: email (a real SMTP server on
// loopback, smtp-server + mailparser) and OpenID Connect (a real oidc-provider on loopback).
// This spec starts its own Herald web server with HERALD_SMTP_URL and HERALD_OIDC_* pointing at
// them, on the same test database and build.

test.describe.configure({ mode: "serial" });

let smtp: Smtp;
let oidc: ReturnType<Provider["listen"]>;
let web: ChildProcess;
let base = "";

const linkIn = (mail: ParsedMail) => {
  const m = /(https?:\/\/\S+\/api\/auth\/callback\/email\?\S+)/.exec(mail.text ?? "");
  if (!m) throw new Error(`no sign-in link in: ${mail.text}`);
  return m[1]!;
};

test.beforeAll(async () => {
  smtp = await startSmtp();

  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const oidcPort = await freePort();
  const issuer = `http://127.0.0.1:${oidcPort}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: "herald",
        client_secret: "herald-test-secret",
        redirect_uris: [`${base}/api/auth/callback/oidc`],
        response_types: ["code"],
        grant_types: ["authorization_code"],
      },
    ],
    // The login name typed on the provider's page is the email; the provider has not verified
    // the addresses that start with "unverified".
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: `sub-${id}`, email: id, email_verified: !id.startsWith("unverified"), name: "SSO Person" }),
    }),
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    cookies: { keys: ["e2e-cookie-key"] },
  });
  oidc = provider.listen(oidcPort);

  const [cmd, args] = webCommand(port);
  web = spawn(cmd, args, {
    env: {
      ...process.env,
      PORT: String(port),
      HERALD_PUBLIC_URL: base,
      NODE_ENV: "production",
      HERALD_WORKER_METRICS_PORT: "0",
      HERALD_SMTP_URL: smtp.url,
      HERALD_EMAIL_FROM: "Herald <herald@e2e.herald.test>",
      HERALD_OIDC_ISSUER: issuer,
      HERALD_OIDC_CLIENT_ID: "herald",
      HERALD_OIDC_CLIENT_SECRET: "herald-test-secret",
      HERALD_OIDC_NAME: "Test SSO",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/api/v1/health/ping`)).ok) return;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the private Herald server did not start");
});

test.afterAll(async () => {
  web?.kill("SIGTERM");
  await new Promise<void>((r) => (web && web.exitCode === null ? web.once("exit", () => r()) : r()));
  await smtp?.close();
  await new Promise<void>((r) => (oidc ? oidc.close(() => r()) : r()));
});

test("an integrator invited by API gets the email, follows the link once, and sees only that application", async ({ page, browser }) => {
  const env = await createEnvironment("e2e integrators");
  const { key } = await createApiKey(env.id, "e2e");
  const api = (method: string, path: string, body?: unknown) => requestJson(method, `${base}/api/v1${path}`, key, body);
  const acme = (await api("POST", "/app", { name: "Acme Billing" })).body as { id: string };
  await api("POST", "/app", { name: "Globex Shipping" });

  const email = uniqueEmail("integrator");
  const invite = await api("POST", `/app/${acme.id}/member`, { email, role: "viewer" });
  expect(invite.status, JSON.stringify(invite.body)).toBe(201);
  expect(invite.body.invite).toMatchObject({ sent: true, url: null });
  const mail = await smtp.waitFor(email, /invited/);
  expect(mail.subject).toContain("Acme Billing");
  const link = linkIn(mail);

  await page.goto(link);
  await expect(page).toHaveURL(/\/portal\/endpoints/);
  await expect(page.getByText("Acme Billing").first()).toBeVisible();
  await expect(page.getByText(/read-only/i).first()).toBeVisible();
  await expect(page.getByText("Globex Shipping")).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOTS}/portal-member-signed-in.png`, fullPage: true });

  // The link is single use: a second browser following it is not signed in.
  const other = await browser.newContext();
  const replay = await other.newPage();
  await replay.goto(link);
  await expect(replay).toHaveURL(/error=Verification/);
  await expect(replay.getByText("This sign-in link has expired or was already used")).toBeVisible();
  await other.close();

  // Later, through /portal/sign-in: a link by email again. (The portal page is left first, so its
  // own reaction to the lost session cannot race our navigation.)
  await page.goto("about:blank");
  await page.context().clearCookies();
  await page.goto(`${base}/portal/sign-in`);
  await page.screenshot({ path: `${SCREENSHOTS}/portal-sign-in.png`, fullPage: true });
  await page.getByRole("textbox", { name: "Email" }).fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByText("Check your email")).toBeVisible();
  await page.goto(linkIn(await smtp.waitFor(email, /^Sign in to Herald$/)));
  await expect(page).toHaveURL(/\/portal\/endpoints/);
  await expect(page.getByText("Acme Billing").first()).toBeVisible();

  // Removed: the open portal's session no longer works.
  expect((await api("DELETE", `/app/${acme.id}/member/${encodeURIComponent(email)}`)).status).toBe(204);
  await page.reload();
  await expect(page.getByText(/session has ended|not valid|revoked/i).first()).toBeVisible();
});

test("no email goes to someone without an account, and the page says the same", async ({ page }) => {
  const stranger = uniqueEmail("stranger");
  await page.goto(`${base}/portal/sign-in`);
  await page.getByRole("textbox", { name: "Email" }).fill(stranger);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByText("Check your email")).toBeVisible();
  await new Promise((r) => setTimeout(r, 1000));
  expect(smtp.mails.filter((m) => m.text?.includes(stranger) || JSON.stringify(m.to).includes(stranger))).toHaveLength(0);
});

test("an invited operator signs in through OpenID Connect; an uninvited one is refused", async ({ page }) => {
  const op = await createOperator({ role: "admin" });
  await page.goto(`${base}/sign-in?callbackUrl=/`);
  await page.getByRole("button", { name: "Continue with Test SSO" }).click();
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/interaction/`));
  await page.locator('input[name="login"]').fill(op.email);
  await page.locator('input[name="password"]').fill("anything");
  await page.locator('button[type="submit"]').click();
  // The provider's consent step, then back to Herald.
  const consent = page.locator('button[type="submit"]');
  if (await consent.isVisible().catch(() => false)) await consent.click();
  await expect(page).toHaveURL(`${base}/`);
  await expect(page.getByText(`Signed in as ${op.email}`)).toBeVisible();

  await page.context().clearCookies();
  await page.goto(`${base}/sign-in?callbackUrl=/`);
  await page.getByRole("button", { name: "Continue with Test SSO" }).click();
  await page.locator('input[name="login"]').fill(uniqueEmail("uninvited"));
  await page.locator('input[name="password"]').fill("anything");
  await page.locator('button[type="submit"]').click();
  const consent2 = page.locator('button[type="submit"]');
  if (await consent2.isVisible().catch(() => false)) await consent2.click();
  await expect(page).toHaveURL(/\/sign-in\?error=AccessDenied/);
  await expect(page.getByText("This account has no access to Herald")).toBeVisible();
});

test("OpenID Connect: an ID token whose email_verified is false is refused, even for an invited email", async ({ page }) => {
  // Invited, so only the provider's "not verified" stands between this login and the account.
  const op = await createOperator({ email: uniqueEmail("unverified"), role: "admin" });
  await page.goto(`${base}/sign-in?callbackUrl=/`);
  await page.getByRole("button", { name: "Continue with Test SSO" }).click();
  await page.locator('input[name="login"]').fill(op.email);
  await page.locator('input[name="password"]').fill("anything");
  await page.locator('button[type="submit"]').click();
  const consent = page.locator('button[type="submit"]');
  if (await consent.isVisible().catch(() => false)) await consent.click();
  await expect(page).toHaveURL(/\/sign-in\?error=EmailUnverified/);
  await expect(page.getByText("has not verified this email address")).toBeVisible();
  const session = await page.request.get(`${base}/api/auth/session`);
  expect(await session.json()).toEqual({});
  await page.screenshot({ path: `${SCREENSHOTS}/sign-in-oidc-unverified.png`, fullPage: true });
});
