import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/accounts/password";
import { newId } from "@/lib/ids";
import { startStack, type Stack } from "./helpers/stack";
import { browser, uniqueEmail } from "./helpers/accounts";
import { receiverPool } from "./helpers/receiver";
import { makeEndpoint, publish, waitUntil } from "./helpers/delivery";
import { requestJson } from "./helpers/http";
import { startSmtp, type Smtp } from "./helpers/smtp";

// "No password hash, session token, API key or secret in any log" (issue 12), checked on what the
// processes really print: a private stack whose web server and worker log at debug level into
// this test, through a run that signs in (right and wrong passwords), mints API keys and portal
// links, opens portal sessions, invites people by email (a real SMTP server on loopback), sets and
// changes passwords, delivers a signed webhook and signs out everywhere. Then every credential
// seen on the way is looked for in the logs, and so are their shapes (hk_, hpt_, hps_, whsec_, scrypt$).

const ENV = "x-herald-environment";
const CSRF = { "x-herald-csrf": "1" };

describe("secrets never reach the logs", () => {
  let s: Stack;
  let smtp: Smtp;
  const receivers = receiverPool();

  beforeAll(async () => {
    smtp = await startSmtp();
    const env = { HERALD_SMTP_URL: smtp.url, HERALD_EMAIL_FROM: "Herald <logs@test.herald.test>", LOG_LEVEL: "debug" };
    s = await startStack({ webEnv: env, workerEnv: env, captureLogs: true });
    s.startWorker();
  }, 180_000);
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
    await receivers.closeAll();
  });

  it("holds none of the credentials a run handled, nor anything shaped like one", async () => {
    const seen: string[] = [];
    const keep = <T extends string | null | undefined>(v: T): T => {
      if (v) seen.push(v);
      return v;
    };

    // An owner with a password; a wrong password first.
    const email = uniqueEmail("logs-owner");
    const password = keep(`pw-${Math.random().toString(36).slice(2)}-owner-secret`);
    const user = await s.db.user.create({ data: { id: newId("user"), email, passwordHash: await hashPassword(password) } });
    await s.db.environmentMembership.create({ data: { id: newId("environmentMembership"), environmentId: s.environmentId, userId: user.id, role: "owner" } });
    const owner = browser(undefined, s.baseUrl);
    expect((await owner.signIn(email, "wrong-password-but-long")).error).toBe("Wrong email or password.");
    expect((await owner.signIn(email, password)).error).toBeNull();
    keep(owner.jar.get("next-auth.session-token"));

    // API keys, an application, an endpoint and its secret, a delivery signed with it.
    const minted = await owner.api("POST", "/environment/api-key", { name: "logs" }, { [ENV]: s.environmentId });
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    const key = keep(minted.body.key as string);
    keep(s.apiKey);
    const api = (method: string, path: string, body?: unknown) => requestJson(method, `${s.baseUrl}/api/v1${path}`, key, body);
    expect((await api("POST", "/event-type", { name: "order.paid", description: "paid" })).status).toBe(201);
    const app = (await api("POST", "/app", { name: "Logs Inc" })).body as { id: string };
    const rx = await receivers.start((_r, res: ServerResponse) => void res.writeHead(200).end("ok"));
    const ep = await makeEndpoint(api, app.id, { url: rx.url, headers: { "x-receiver-token": "receiver-credential-xyz" } });
    keep(ep.secret);
    keep("receiver-credential-xyz");
    await publish(api, app.id, { hello: "world" });
    await rx.waitFor(1);

    // Portal links and sessions.
    const link = await api("POST", `/auth/app-portal-access/${app.id}`, {});
    keep(link.body.token);
    const session = await requestJson("POST", `${s.baseUrl}/api/v1/auth/portal-session`, null, { token: link.body.token });
    expect(session.status).toBe(200);
    keep(session.body.session);
    expect((await requestJson("GET", `${s.baseUrl}/api/v1/app/${app.id}/endpoint`, session.body.session)).status).toBe(200);

    // An operator invited by email sets a password, then changes it (a wrong current one first).
    const invitee = uniqueEmail("logs-invitee");
    expect((await owner.api("POST", "/environment/member", { email: invitee, role: "admin" }, { [ENV]: s.environmentId })).status).toBe(201);
    const inviteUrl = /(https?:\/\/\S+\/api\/auth\/callback\/email\?\S+)/.exec((await smtp.waitFor(invitee, /invited/)).text ?? "")![1]!;
    keep(new URL(inviteUrl).searchParams.get("token"));
    const them = browser(undefined, s.baseUrl);
    const u = new URL(inviteUrl);
    expect((await them.request("GET", u.pathname + u.search)).headers.get("location")).toContain("/account?welcome=1");
    keep(them.jar.get("next-auth.session-token"));
    const first = keep(`first-${Math.random().toString(36).slice(2)}-password`);
    const second = keep(`second-${Math.random().toString(36).slice(2)}-password`);
    const set = await them.request("POST", "/api/account/password", { body: JSON.stringify({ newPassword: first }), headers: { ...CSRF, "content-type": "application/json" } });
    expect(set.status, set.text).toBe(200);
    const wrong = await them.request("POST", "/api/account/password", { body: JSON.stringify({ currentPassword: "not-the-password", newPassword: second }), headers: { ...CSRF, "content-type": "application/json" } });
    expect(wrong.status).toBe(403);
    const changed = await them.request("POST", "/api/account/password", { body: JSON.stringify({ currentPassword: first, newPassword: second }), headers: { ...CSRF, "content-type": "application/json" } });
    expect(changed.status, changed.text).toBe(200);

    // An integrator invited by email; their member portal.
    const integrator = uniqueEmail("logs-integrator");
    expect((await api("POST", `/app/${app.id}/member`, { email: integrator, role: "viewer" })).status).toBe(201);
    const memberUrl = /(https?:\/\/\S+\/api\/auth\/callback\/email\?\S+)/.exec((await smtp.waitFor(integrator, /invited/)).text ?? "")![1]!;
    keep(new URL(memberUrl).searchParams.get("token"));
    const member = browser(undefined, s.baseUrl);
    const mu = new URL(memberUrl);
    await member.request("GET", mu.pathname + mu.search);
    const opened = await member.request("GET", `/portal/sign-in/continue?app=${app.id}`);
    keep(/#key=(hpt_[\w-]+)/.exec(opened.headers.get("location") ?? "")?.[1]);

    expect((await owner.request("POST", "/api/account/sign-out-everywhere", { headers: CSRF })).status).toBe(200);

    // What the database holds that must not be printed either: password hashes, session and token hashes.
    for (const u of await s.db.user.findMany({ select: { passwordHash: true } })) keep(u.passwordHash);
    for (const t of await s.db.portalToken.findMany({ select: { hash: true } })) keep(t.hash);
    for (const k of await s.db.apiKey.findMany({ select: { hash: true } })) keep(k.hash);
    keep(process.env.HERALD_ENCRYPTION_KEY);

    // Give the worker a moment to log the delivery, then read everything both processes printed.
    await waitUntil("the worker's log of the run", () => Promise.resolve(s.logs()), (l) => l.includes("worker started"), 10_000);
    const logs = s.logs();
    expect(logs).toContain("web server ready");
    expect(logs).toContain("email sent"); // the web process's mail log is in the capture
    expect(seen.length).toBeGreaterThan(15);
    for (const secret of seen) expect(logs.includes(secret), `a credential (${secret.slice(0, 6)}…) is in the logs`).toBe(false);
    for (const shape of [/scrypt\$/, /\bhk_[A-Za-z0-9_-]{16,}/, /\bhpt_[A-Za-z0-9_-]{16,}/, /\bhps_[A-Za-z0-9_-]{16,}/, /\bwhsec_[A-Za-z0-9+/=]{16,}/])
      expect(logs, `something shaped like ${shape} is in the logs`).not.toMatch(shape);
  }, 120_000);
});
