import type { ServerResponse } from "node:http";
import { expect, test } from "@playwright/test";
import { startStack, type Stack } from "../test/helpers/stack";
import { receiverPool } from "../test/helpers/receiver";
import { makeApp, makeEndpoint, publish } from "../test/helpers/delivery";
import { rawHeader, startSmtp, type Smtp } from "../test/helpers/smtp";
import { shot } from "./fixtures";
import { uniqueEmail } from "./helpers/accounts";

// Endpoint alerts (issue 13 item 15) as an integrator meets them: invited by email (a real SMTP
// server on loopback), they open their portal, opt in on the Notifications page, see the banner
// while their endpoint fails, get one email, and unsubscribe from it in one click without
// signing in. A private stack (its own database, Redis prefix, web server and worker, all with
// SMTP configured), so the shared e2e worker never handles these deliveries.

test.describe.configure({ mode: "serial" });

let s: Stack;
let smtp: Smtp;
const receivers = receiverPool();
let status = 500;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  smtp = await startSmtp();
  const mail = { HERALD_SMTP_URL: smtp.url, HERALD_EMAIL_FROM: "Herald <alerts@e2e.herald.test>" };
  s = await startStack({ webEnv: mail, workerEnv: { ...mail, HERALD_CIRCUIT_COOLDOWN_MS: "1000" } });
  s.startWorker();
});

test.afterAll(async () => {
  await s?.close();
  await smtp?.close();
  await receivers.closeAll();
});

test("a member opts in, sees the banner while an endpoint fails, gets one email and unsubscribes in one click", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const rx = await receivers.start((_r, res: ServerResponse) => void res.writeHead(status).end(status === 200 ? "ok" : "down"));
  const appId = await makeApp(s.api, { name: "Acme Billing" });
  await makeEndpoint(s.api, appId, { url: rx.url, description: "Billing webhooks" });

  const email = uniqueEmail("alerts");
  expect((await s.api("POST", `/app/${appId}/member`, { email, role: "viewer" })).status).toBe(201);
  const invite = await smtp.waitFor(email, /invited/);
  await page.goto(/(https?:\/\/\S+\/api\/auth\/callback\/email\?\S+)/.exec(invite.text ?? "")![1]!);
  await expect(page).toHaveURL(/\/portal\/endpoints/);

  // Opt in: off until the member says so.
  await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Notifications" }).click();
  await expect(page.getByRole("heading", { name: "Notifications" })).toBeVisible();
  const box = page.getByRole("checkbox", { name: /Email me about this application's endpoints/ });
  await expect(box).not.toBeChecked();
  await box.check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved: you will get endpoint alerts.")).toBeVisible();
  await shot(page, "portal-alerts-opt-in", { doc: true });

  // The endpoint fails: the banner on every page, and one email.
  await Promise.all(Array.from({ length: 20 }, (_, i) => publish(s.api, appId, { n: i })));
  await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Endpoints" }).click();
  const banner = page.getByRole("region", { name: "Endpoint alerts" });
  await expect(banner).toContainText("Billing webhooks", { timeout: 30_000 });
  await expect(banner).toContainText("is failing since");
  await shot(page, "portal-alert-banner", { doc: true });
  const alert = await smtp.waitFor(email, /Webhooks are failing/);
  expect(rawHeader(alert, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");

  // The footer's link, in a browser that is not signed in: a page with one button.
  const stranger = await browser.newContext();
  const unsub = await stranger.newPage();
  await unsub.goto(/Unsubscribe: (\S+)/.exec(alert.text ?? "")![1]!);
  await expect(unsub.getByText(`Stop emailing ${email}`)).toBeVisible();
  await shot(unsub, "unsubscribe-page", { doc: true });
  await unsub.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(unsub.getByText("no longer gets emails about the endpoints of Acme Billing")).toBeVisible();
  await shot(unsub, "unsubscribe-done", { doc: true });
  await stranger.close();

  await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Notifications" }).click();
  await expect(page.getByRole("checkbox", { name: /Email me about/ })).not.toBeChecked();

  // The server comes back: the banner goes away by itself, and no email (unsubscribed).
  status = 200;
  await expect(banner).toHaveCount(0, { timeout: 40_000 });
  await new Promise((r) => setTimeout(r, 2_000));
  expect(smtp.to(email, /recovered/)).toHaveLength(0);
});
