import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "./helpers/stack";
import { receiverPool, type Received } from "./helpers/receiver";
import { makeApp, makeEndpoint, publish, waitUntil } from "./helpers/delivery";
import { browser, uniqueEmail } from "./helpers/accounts";
import { rawHeader, startSmtp, type Smtp } from "./helpers/smtp";
import { requestJson } from "./helpers/http";

// Endpoint alerts by email (issue 13 item 15), end to end on a private stack with two worker
// processes and a real SMTP server on loopback: members invited by API follow their emailed
// link, opt in on their portal, and get exactly one email per change of an endpoint (failing,
// recovered, disabled, enabled again) however many attempts and workers see it; the one-click
// unsubscribe (RFC 8058) works without signing in.

const FAILING = /Webhooks are failing/;
const RECOVERED = /Webhooks recovered/;
const DISABLED = /Endpoint disabled/;
const ENABLED = /Endpoint enabled again/;

describe("endpoint alerts by email", () => {
  let s: Stack;
  let smtp: Smtp;
  let second: { stop(): Promise<void> };
  const receivers = receiverPool();

  beforeAll(async () => {
    smtp = await startSmtp();
    const mail = { HERALD_SMTP_URL: smtp.url, HERALD_EMAIL_FROM: "Herald <alerts@test.herald.test>" };
    // A short circuit cool-down, so the probe that sees the recovery comes within a second or two.
    s = await startStack({ webEnv: mail, workerEnv: { ...mail, HERALD_CIRCUIT_COOLDOWN_MS: "1000" } });
    s.startWorker();
    second = s.addWorker();
  }, 180_000);
  afterAll(async () => {
    await second?.stop();
    await s?.close();
    await smtp?.close();
    await receivers.closeAll();
  });

  /** An integrator invited by API who follows the emailed link; returns their portal link's token. */
  async function member(appId: string, role: "admin" | "viewer", optIn: boolean) {
    const email = uniqueEmail("alerted");
    const invite = await s.api("POST", `/app/${appId}/member`, { email, role });
    expect(invite.status, JSON.stringify(invite.body)).toBe(201);
    const mail = await smtp.waitFor(email, /invited/);
    const link = /(https?:\/\/\S+\/api\/auth\/callback\/email\?\S+)/.exec(mail.text ?? "")![1]!;
    const br = browser(undefined, s.baseUrl);
    const u = new URL(link);
    await br.request("GET", u.pathname + u.search);
    const opened = await br.request("GET", `/portal/sign-in/continue?app=${appId}`);
    const token = /#key=(hpt_[A-Za-z0-9_-]+)/.exec(opened.headers.get("location") ?? "")?.[1];
    expect(token, `no portal link in ${opened.headers.get("location")}`).toBeTruthy();
    const portal = (method: string, path: string, body?: unknown) => requestJson(method, `${s.baseUrl}/api/v1${path}`, token!, body);
    if (optIn) {
      const set = await portal("PUT", "/portal/notifications", { endpointAlerts: true });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body).toEqual({ email, endpointAlerts: true, emailConfigured: true, member: true });
    }
    return { email, portal, token: token! };
  }

  /** Waits a little longer, then: exactly one email matching `subject` to each of `to`, none to `not`. */
  async function expectOneEach(subject: RegExp, to: string[], not: string[] = []) {
    for (const email of to) await smtp.waitFor(email, subject);
    await new Promise((r) => setTimeout(r, 2_000));
    for (const email of to) expect(smtp.to(email, subject), `${subject} to ${email}`).toHaveLength(1);
    for (const email of not) expect(smtp.to(email, subject), `${subject} to ${email}`).toHaveLength(0);
  }

  it("a failing endpoint: one email to each opted-in member across two workers, the banner, then one 'recovered'", async () => {
    let status = 500;
    const rx = await receivers.start((_r: Received, res: ServerResponse) => void res.writeHead(status).end("down"));
    const appId = await makeApp(s.api, { name: "Acme Billing" });
    const ep = await makeEndpoint(s.api, appId, { url: rx.url, description: "Billing webhooks" });
    const alice = await member(appId, "admin", true);
    const bob = await member(appId, "viewer", true); // a read-only member may opt in too: it is their inbox
    const carol = await member(appId, "admin", false);

    // 30 deliveries failing at once, shared by both workers: the circuit opens after 10.
    await Promise.all(Array.from({ length: 30 }, (_, i) => publish(s.api, appId, { n: i })));
    await expectOneEach(FAILING, [alice.email, bob.email], [carol.email]);
    const mail = smtp.to(alice.email, FAILING)[0]!;
    expect(mail.subject).toBe(`[Acme Billing] Webhooks are failing: ${rx.url}`);
    expect(mail.text).toContain("Billing webhooks");
    expect(mail.text).toMatch(/failing since \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(mail.text).toContain(`${s.baseUrl}/portal/sign-in?app=${appId}`);
    // RFC 8058 one-click unsubscribe, and the page link in the footer.
    expect(rawHeader(mail, "List-Unsubscribe")).toMatch(new RegExp(`^<${s.baseUrl}/api/notifications/unsubscribe\\?token=[\\w-]+\\.[\\w-]+>$`));
    expect(rawHeader(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(mail.text).toMatch(new RegExp(`Unsubscribe: ${s.baseUrl}/unsubscribe\\?token=`));

    const banner = await alice.portal("GET", `/portal/app/${appId}/endpoint-alerts`);
    expect(banner.status).toBe(200);
    expect(banner.body.data).toEqual([
      expect.objectContaining({ endpointId: ep.id, kind: "failing", url: rx.url, description: "Billing webhooks", since: expect.any(String) }),
    ]);

    // More failures while it fails say nothing new.
    await Promise.all(Array.from({ length: 5 }, (_, i) => publish(s.api, appId, { more: i })));
    await new Promise((r) => setTimeout(r, 3_000));
    expect(smtp.to(alice.email, FAILING)).toHaveLength(1);

    // The server comes back: the circuit's probe succeeds, and everyone hears it once.
    status = 200;
    await expectOneEach(RECOVERED, [alice.email, bob.email], [carol.email]);
    expect(smtp.to(alice.email, RECOVERED)[0]!.text).toContain("receiving webhooks again");
    await waitUntil("the banner to clear", () => alice.portal("GET", `/portal/app/${appId}/endpoint-alerts`), (r) => r.body.data.length === 0);
    expect(smtp.to(carol.email, /./).filter((m) => !/invited/.test(m.subject ?? ""))).toHaveLength(0);
  }, 120_000);

  it("disabled by a 410, enabled again: one email each; one-click unsubscribe stops them without signing in", async () => {
    let status = 410;
    const rx = await receivers.start((_r: Received, res: ServerResponse) => void res.writeHead(status).end("gone"));
    const appId = await makeApp(s.api, { name: "Globex" });
    const ep = await makeEndpoint(s.api, appId, { url: rx.url });
    const alice = await member(appId, "admin", true);
    const bob = await member(appId, "admin", true);

    await Promise.all(Array.from({ length: 5 }, (_, i) => publish(s.api, appId, { n: i })));
    await expectOneEach(DISABLED, [alice.email, bob.email]);
    const mail = smtp.to(alice.email, DISABLED)[0]!;
    expect(mail.text).toContain("410 Gone");
    expect(smtp.to(alice.email, FAILING)).toHaveLength(0); // disabled says it all
    const banner = await bob.portal("GET", `/portal/app/${appId}/endpoint-alerts`);
    expect(banner.body.data).toEqual([expect.objectContaining({ endpointId: ep.id, kind: "disabled", reason: expect.stringContaining("410") })]);

    // The mail client's one-click POST (RFC 8058): no cookie, no sign-in, just the signed link.
    const oneClick = /^<(.+)>$/.exec(rawHeader(mail, "List-Unsubscribe")!)![1]!;
    const res = await fetch(oneClick, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ unsubscribed: true, email: alice.email });
    expect((await alice.portal("GET", "/portal/notifications")).body.endpointAlerts).toBe(false);
    // The footer's page says so too (a GET never unsubscribes by itself).
    const page = await fetch(/Unsubscribe: (\S+)/.exec(mail.text!)![1]!);
    expect(await page.text()).toContain("no longer gets emails");

    status = 200;
    expect((await s.api("PATCH", `/app/${appId}/endpoint/${ep.id}`, { disabled: false })).status).toBe(200);
    await expectOneEach(ENABLED, [bob.email], [alice.email]);
  }, 120_000);

  it("refuses bad unsubscribe links and settings from anyone but a member, with clear 4xx", async () => {
    const bad = await fetch(`${s.baseUrl}/api/notifications/unsubscribe?token=not.a-token`, { method: "POST", body: "List-Unsubscribe=One-Click" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "unsubscribe_link_invalid" });
    const none = await fetch(`${s.baseUrl}/api/notifications/unsubscribe`, { method: "POST" });
    expect(none.status).toBe(400);

    const appId = await makeApp(s.api, { name: "Initech" });
    const m = await member(appId, "viewer", false);
    expect((await m.portal("PUT", "/portal/notifications", { endpointAlerts: "yes" })).status).toBe(422);
    expect((await m.portal("PUT", "/portal/notifications", {})).status).toBe(422);
    // An operator's magic link has no person behind it; an API key neither.
    const link = await s.api("POST", `/auth/app-portal-access/${appId}`, {});
    const magic = await requestJson("PUT", `${s.baseUrl}/api/v1/portal/notifications`, link.body.token, { endpointAlerts: true });
    expect(magic.status).toBe(403);
    expect(magic.body.detail).toContain("/portal/sign-in");
    expect((await s.api("GET", "/portal/notifications")).status).toBe(403);
    // A magic link's portal reads that it has nobody to email (every portal page may ask).
    expect((await requestJson("GET", `${s.baseUrl}/api/v1/portal/notifications`, link.body.token)).body).toMatchObject({ member: false, email: null, endpointAlerts: false });
    // Another application's alerts are not visible with this member's link.
    const other = await makeApp(s.api, { name: "Other" });
    expect((await m.portal("GET", `/portal/app/${other}/endpoint-alerts`)).status).toBe(404);
  }, 60_000);
});
