import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "./helpers/tenant";
import { portalSession, seedDelivery, type PortalClient } from "./helpers/portal";

// GET /app/{app}/endpoint/{ep}/metrics over a known history of attempts (written straight to the
// database, the endpoint paused so no worker adds any): success rate, status codes and latency
// p50/p95 for each window, the same for the operator's key and the application's portal session,
// other applications and tenants not found, a bad window a 422 naming it.

const HOUR = 3600_000;

describe("endpoint metrics", () => {
  let t: Tenant;
  let appId: string;
  let ep: string;
  let portal: PortalClient;

  beforeAll(async () => {
    t = await createTenant("endpoint-metrics");
    appId = (await t.api("POST", "/app", { name: "Metrics" })).body.id;
    await t.api("POST", "/event-type", { name: "order.paid", description: "paid" });
    ep = (await t.api("POST", `/app/${appId}/endpoint`, { url: "https://hooks.example.com/m", disabled: true })).body.id;
    // [hours ago, status code, duration ms]
    const history: [number, number, number][] = [
      [0.2, 200, 100],
      [0.3, 200, 200],
      [0.4, 500, 300],
      [0.5, 0, 15000],
      [3, 200, 50],
      [4, 200, 60],
      [72, 503, 1000],
      [9 * 24, 200, 5],
    ];
    for (const [hoursAgo, code, duration] of history) {
      const at = new Date(Date.now() - hoursAgo * HOUR);
      const msg = (await t.api("POST", `/app/${appId}/msg`, { eventType: "order.paid", payload: { hoursAgo } })).body;
      const ok = code >= 200 && code < 300;
      const d = await seedDelivery(t, { appId, endpointId: ep, messageId: msg.id, eventType: "order.paid", status: ok ? "succeeded" : "failed", attempts: [{ ok, code, at }], at });
      await t.db.attempt.update({ where: { id: d.attemptIds[0]! }, data: { durationMs: duration } });
    }
    portal = await portalSession(t, appId);
  });

  const metrics = (query = "", client: { api: Tenant["api"] } = t) => client.api("GET", `/app/${appId}/endpoint/${ep}/metrics${query}`);

  it("adds up the last hour: success rate, status codes most frequent first, latency percentiles", async () => {
    const r = await metrics("?window=1h");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ endpointId: ep, window: "1h", attempts: 4, success: 2, fail: 2, successRate: 0.5 });
    expect(r.body.statusCodes).toEqual([
      { code: 200, count: 2 },
      { code: 0, count: 1 },
      { code: 500, count: 1 },
    ]);
    // Interpolated percentiles of 100, 200, 300, 15000.
    expect(r.body.latencyMs).toEqual({ p50: 250, p95: 12795 });
    expect(new Date(r.body.until).getTime() - new Date(r.body.since).getTime()).toBe(HOUR);
  });

  it("24 hours by default, and 7 days, leaving out older attempts", async () => {
    const day = await metrics();
    expect(day.body).toMatchObject({ window: "24h", attempts: 6, success: 4, fail: 2 });
    expect(day.body.successRate).toBeCloseTo(4 / 6);
    expect(day.body.latencyMs.p50).toBe(150);
    const week = await metrics("?window=7d");
    expect(week.body).toMatchObject({ window: "7d", attempts: 7, success: 4, fail: 3 });
    expect(week.body.statusCodes).toEqual([
      { code: 200, count: 4 },
      { code: 0, count: 1 },
      { code: 500, count: 1 },
      { code: 503, count: 1 },
    ]);
    expect(week.body.latencyMs.p50).toBe(200);
  });

  it("answers the application's portal session the same, and nothing for other applications or tenants", async () => {
    const viaPortal = await metrics("?window=7d", portal);
    expect(viaPortal.status).toBe(200);
    expect(viaPortal.body.attempts).toBe(7);
    const otherApp = (await t.api("POST", "/app", { name: "Other metrics" })).body.id;
    const otherPortal = await portalSession(t, otherApp);
    expect((await otherPortal.api("GET", `/app/${appId}/endpoint/${ep}/metrics`)).status).toBe(404);
    expect((await otherPortal.api("GET", `/app/${otherApp}/endpoint/${ep}/metrics`)).status).toBe(404);
    const stranger = await createTenant("endpoint-metrics-other");
    expect((await stranger.api("GET", `/app/${appId}/endpoint/${ep}/metrics`)).status).toBe(404);
  });

  it("has nulls, not zeros, without attempts", async () => {
    const quiet = (await t.api("POST", `/app/${appId}/endpoint`, { url: "https://hooks.example.com/quiet", disabled: true })).body.id;
    const r = await t.api("GET", `/app/${appId}/endpoint/${quiet}/metrics?window=1h`);
    expect(r.body).toMatchObject({ attempts: 0, successRate: null, statusCodes: [], latencyMs: { p50: null, p95: null } });
  });

  it("refuses an unknown window with a 422 naming it", async () => {
    const r = await metrics("?window=2h");
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(["query", "window"]);
    expect(r.body.detail[0].msg).toMatch(/1h, 24h, 7d/);
  });
});
