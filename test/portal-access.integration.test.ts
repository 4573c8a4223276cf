import { beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "@/lib/crypto/tokens";
import { createTenant, type Tenant } from "./helpers/tenant";
import { call, portalLink, portalSession, seedDelivery } from "./helpers/portal";

// Magic links and sessions: expiry, revocation, invalid links, logout, read-only sessions that
// cannot change anything, and link flags as capabilities. Each refusal carries a distinct code
// so the portal can tell its user why (docs/portal.md).

describe("portal links and sessions", () => {
  let t: Tenant;
  let appId: string;
  let epId: string;
  let msgId: string;

  beforeAll(async () => {
    t = await createTenant("portal-access");
    appId = (await t.api("POST", "/app", { name: "Access" })).body.id;
    await t.api("POST", "/event-type", { name: "order.paid", description: "paid", schemas: { "1": { type: "object", properties: { id: { type: "string" } } } } });
    epId = (await t.api("POST", `/app/${appId}/endpoint`, { url: "https://hooks.example.com/a", disabled: true })).body.id;
    msgId = (await t.api("POST", `/app/${appId}/msg`, { eventType: "order.paid", payload: { id: "1" } })).body.id;
    await seedDelivery(t, { appId, endpointId: epId, messageId: msgId, eventType: "order.paid", status: "failed", attempts: [{ ok: false, code: 500 }] });
  });

  it("puts the token in the URL fragment, never in the path or query", async () => {
    const link = await portalLink(t, appId);
    const url = new URL(link.url);
    expect(url.pathname).toBe("/portal");
    // The query names the environment only (not a secret: it selects the embedding origins).
    expect(url.search).toBe(`?env=${t.environmentId}`);
    expect(url.hash).toBe(`#key=${link.token}`);
  });

  it("exchanges a link for a one-hour session with the application, flags and capabilities", async () => {
    const s = await portalSession(t, appId, { featureFlags: ["portal.no-replay", "beta"] });
    expect(s.session).toMatch(/^hps_/);
    expect(s.info.application.id).toBe(appId);
    expect(s.info.capabilities).toEqual({ write: true, replay: false, retry: true, secrets: true, sendExample: true, rotateSecret: true, tasks: true });
    expect(s.info.svixCapabilities).toEqual(["ViewBase", "ViewEndpointSecret", "ManageEndpointSecret", "CreateAttempts", "ManageEndpoint"]);
    const left = new Date(s.info.expiresAt).getTime() - Date.now();
    expect(left).toBeGreaterThan(55 * 60_000);
    expect(left).toBeLessThanOrEqual(60 * 60_000);
    const me = await s.api("GET", "/portal/session");
    expect(me.status).toBe(200);
    expect(me.body.application.id).toBe(appId);
    expect(me.body.featureFlags).toEqual(["portal.no-replay", "beta"]);
  });

  it("refuses an invalid, an expired and a revoked link with distinct codes", async () => {
    const invalid = await call("POST", "/auth/portal-session", null, { token: "hpt_not-a-real-token" });
    expect(invalid.status).toBe(401);
    expect(invalid.body.code).toBe("portal_link_invalid");

    const expiring = await portalLink(t, appId, { expiry: 60 });
    await t.db.portalToken.update({ where: { hash: hashToken(expiring.token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await call("POST", "/auth/portal-session", null, { token: expiring.token });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe("portal_link_expired");

    const other = await createTenant("portal-access-revoke");
    const app2 = (await other.api("POST", "/app", { name: "Revoked" })).body.id;
    const link = await portalLink(other, app2);
    const live = await portalSession(other, app2);
    expect((await live.api("GET", `/app/${app2}/endpoint`)).status).toBe(200);
    expect((await other.api("POST", `/auth/app/${app2}/expire-all`)).status).toBe(204);
    const revoked = await call("POST", "/auth/portal-session", null, { token: link.token });
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe("portal_link_revoked");
    // The open session is refused too, and says why.
    const afterRevoke = await live.api("GET", `/app/${app2}/endpoint`);
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.body.code).toBe("portal_session_revoked");
    // A link issued after the revocation works.
    const fresh = await portalSession(other, app2);
    expect((await fresh.api("GET", `/app/${app2}/endpoint`)).status).toBe(200);
  });

  it("refuses an expired session and a signed-out one", async () => {
    const s = await portalSession(t, appId);
    await t.db.portalSession.update({ where: { hash: hashToken(s.session) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await s.api("GET", `/app/${appId}/endpoint`);
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe("portal_session_expired");

    const s2 = await portalSession(t, appId);
    expect((await s2.api("POST", "/auth/logout")).status).toBe(204);
    const out = await s2.api("GET", `/app/${appId}/endpoint`);
    expect(out.status).toBe(401);
    expect(out.body.code).toBe("portal_session_invalid");
  });

  it("a read-only session can look at everything and change nothing", async () => {
    const ro = await portalSession(t, appId, { readOnly: true });
    expect(ro.info.capabilities).toEqual({ write: false, replay: false, retry: false, secrets: true, sendExample: false, rotateSecret: false, tasks: false });
    expect(ro.info.svixCapabilities).toEqual(["ViewBase", "ViewEndpointSecret"]);
    for (const path of [`/app/${appId}/endpoint`, `/app/${appId}/endpoint/${epId}`, `/portal/app/${appId}/delivery`, `/portal/app/${appId}/failure`, "/portal/event-type"])
      expect((await ro.api("GET", path)).status, path).toBe(200);

    const writes: [string, string, unknown?][] = [
      ["POST", `/app/${appId}/endpoint`, { url: "https://hooks.example.com/new" }],
      ["PATCH", `/app/${appId}/endpoint/${epId}`, { description: "changed" }],
      ["PATCH", `/app/${appId}/endpoint/${epId}`, { disabled: false }],
      ["PUT", `/app/${appId}/endpoint/${epId}`, { url: "https://hooks.example.com/changed" }],
      ["DELETE", `/app/${appId}/endpoint/${epId}`],
      ["POST", `/app/${appId}/endpoint/${epId}/secret/rotate`, {}],
      ["PATCH", `/app/${appId}/endpoint/${epId}/headers`, { headers: { "x-a": "1" } }],
      ["PUT", `/app/${appId}/endpoint/${epId}/headers`, { headers: {} }],
      ["POST", `/app/${appId}/endpoint/${epId}/send-example`, { eventType: "order.paid" }],
      ["POST", `/app/${appId}/endpoint/${epId}/recover`, { since: new Date(Date.now() - 3600_000).toISOString() }],
      ["POST", `/app/${appId}/msg/${msgId}/endpoint/${epId}/resend`],
      ["POST", `/app/${appId}/msg/${msgId}/replay`, {}],
      ["POST", `/app/${appId}/replay`, {}],
      ["POST", `/app/${appId}/bulk-retry`, {}],
      ["POST", `/portal/app/${appId}/endpoint/${epId}/preview-example`, { eventType: "order.paid" }],
    ];
    const before = await t.db.endpoint.findUniqueOrThrow({ where: { id: epId } });
    for (const [method, path, body] of writes) {
      const r = await ro.api(method, path, body);
      expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(403);
      expect(r.body.detail).toMatch(/read-only/);
    }
    const after = await t.db.endpoint.findUniqueOrThrow({ where: { id: epId } });
    expect(after).toEqual(before);
    expect(await t.db.message.count({ where: { applicationId: appId } })).toBe(1);
    expect(await t.db.task.count({ where: { applicationId: appId } })).toBe(0);
  });

  it("link flags restrict the portal, and the API enforces them", async () => {
    const s = await portalSession(t, appId, { featureFlags: ["portal.no-send-example", "portal.no-secrets", "portal.no-retry"] });
    expect(s.info.capabilities).toMatchObject({ write: true, sendExample: false, secrets: false, retry: false, replay: true });
    const refused: [string, string, unknown?][] = [
      ["POST", `/portal/app/${appId}/endpoint/${epId}/preview-example`, { eventType: "order.paid" }],
      ["POST", `/app/${appId}/endpoint/${epId}/send-example`, { eventType: "order.paid" }],
      ["GET", `/app/${appId}/endpoint/${epId}/secret`],
      ["POST", `/app/${appId}/endpoint/${epId}/secret/rotate`, {}],
      ["POST", `/app/${appId}/msg/${msgId}/endpoint/${epId}/resend`],
    ];
    for (const [method, path, body] of refused) {
      const r = await s.api(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.detail).toMatch(/does not allow/);
    }
    const noReplay = await portalSession(t, appId, { featureFlags: ["portal.no-replay"] });
    for (const [method, path, body] of [
      ["POST", `/app/${appId}/msg/${msgId}/replay`, {}],
      ["POST", `/app/${appId}/replay`, {}],
    ] as [string, string, unknown][]) {
      const r = await noReplay.api(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(403);
    }
    expect((await s.api("POST", `/app/${appId}/bulk-retry`, {})).status).toBe(403);
    // What the flags do not name still works.
    expect((await s.api("PATCH", `/app/${appId}/endpoint/${epId}`, { description: "still editable" })).status).toBe(200);
    // Without flags the same session kind may read the secret.
    const full = await portalSession(t, appId);
    expect((await full.api("GET", `/app/${appId}/endpoint/${epId}/secret`)).body.key).toMatch(/^whsec_/);
  });

  it("Svix capabilities: each one is enforced by the API, and a read-only link without ViewEndpointSecret gets no secret", async () => {
    const secret = `/app/${appId}/endpoint/${epId}/secret`;
    const noSecret = await portalSession(t, appId, { readOnly: true, capabilities: ["ViewBase"] });
    expect(noSecret.info.capabilities).toMatchObject({ secrets: false, rotateSecret: false, write: false });
    expect(noSecret.info.svixCapabilities).toEqual(["ViewBase"]);
    const refusedSecret = await noSecret.api("GET", secret);
    expect(refusedSecret.status).toBe(403);
    expect(refusedSecret.body.key).toBeUndefined();
    expect(JSON.stringify(refusedSecret.body)).not.toMatch(/whsec_/);
    expect((await noSecret.api("GET", `/app/${appId}/endpoint/${epId}`)).status).toBe(200); // ViewBase
    // The link's own token as the bearer (as svix-react uses it) is held to the same.
    const link = await portalLink(t, appId, { readOnly: true, capabilities: ["ViewBase"] });
    expect((await call("GET", secret, link.token)).status).toBe(403);

    // Read-only strips everything but the views, whatever else the link names.
    const roAll = await portalSession(t, appId, { readOnly: true, capabilities: ["ViewBase", "ViewEndpointSecret", "ManageEndpoint", "CreateAttempts"] });
    expect(roAll.info.svixCapabilities).toEqual(["ViewBase", "ViewEndpointSecret"]);
    expect((await roAll.api("GET", secret)).body.key).toMatch(/^whsec_/);
    expect((await roAll.api("PATCH", `/app/${appId}/endpoint/${epId}`, { description: "x" })).status).toBe(403);

    const check = async (caps: string[], allowed: Record<string, boolean>) => {
      const s = await portalSession(t, appId, { capabilities: caps });
      const actions: Record<string, [string, string, unknown?]> = {
        viewSecret: ["GET", secret],
        rotate: ["POST", `${secret}/rotate`, {}],
        manage: ["PATCH", `/app/${appId}/endpoint/${epId}`, { description: `by ${caps.join("+")}` }],
        headers: ["PATCH", `/app/${appId}/endpoint/${epId}/headers`, { headers: { "x-by": "caps" } }],
        create: ["POST", `/app/${appId}/endpoint`, { url: "https://hooks.example.com/by-caps", disabled: true }],
        resend: ["POST", `/app/${appId}/msg/${msgId}/endpoint/${epId}/resend`],
        replay: ["POST", `/app/${appId}/msg/${msgId}/replay`, {}],
        sendExample: ["POST", `/app/${appId}/endpoint/${epId}/send-example`, { eventType: "order.paid" }],
      };
      for (const [name, [method, path, body]] of Object.entries(actions)) {
        const r = await s.api(method, path, body);
        if (allowed[name]) expect(r.status, `${caps.join("+")} ${name}: ${JSON.stringify(r.body)}`).not.toBe(403);
        else {
          expect(r.status, `${caps.join("+")} ${name}: ${JSON.stringify(r.body)}`).toBe(403);
          expect(r.body.detail).toMatch(/does not allow this action/);
        }
      }
    };
    const none = { viewSecret: false, rotate: false, manage: false, headers: false, create: false, resend: false, replay: false, sendExample: false };
    await check(["ViewBase"], none);
    await check(["ViewBase", "ViewEndpointSecret"], { ...none, viewSecret: true });
    await check(["ViewBase", "ViewEndpointSecret", "ManageEndpointSecret"], { ...none, viewSecret: true, rotate: true });
    await check(["ViewBase", "CreateAttempts"], { ...none, resend: true, replay: true, sendExample: true });
    await check(["ViewBase", "ManageEndpoint"], { ...none, manage: true, headers: true, create: true });

    // Bad capabilities are a 422 naming the field.
    for (const capabilities of [["ViewEndpointSecret"], ["ViewBase", "Everything"], ["ViewBase", "ViewBase"]]) {
      const r = await t.api("POST", `/auth/app-portal-access/${appId}`, { capabilities });
      expect(r.status, JSON.stringify(capabilities)).toBe(422);
      expect(r.body.detail[0].loc[0]).toBe("body");
      expect(r.body.detail[0].loc[1]).toBe("capabilities");
    }
  });

  it("event types behind a feature flag are only in the catalog of links with that flag", async () => {
    await t.api("POST", "/event-type", { name: "beta.thing_happened", description: "beta", featureFlag: "beta" });
    const plain = await portalSession(t, appId);
    const names = (await plain.api("GET", "/portal/event-type")).body.data.map((e: { name: string }) => e.name);
    expect(names).not.toContain("beta.thing_happened");
    const beta = await portalSession(t, appId, { featureFlags: ["beta"] });
    const betaNames = (await beta.api("GET", "/portal/event-type")).body.data.map((e: { name: string }) => e.name);
    expect(betaNames).toContain("beta.thing_happened");
  });
});
