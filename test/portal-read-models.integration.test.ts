import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "./helpers/tenant";
import { portalSession, seedDelivery, type PortalClient } from "./helpers/portal";

// The portal's read models over a known history written straight to the database (paused
// endpoints, so the worker never touches it): every filter of the delivery log returns exactly
// the expected rows in id order, pages walk both ways without gaps or repeats, failures group by
// endpoint and status code, and the 24 h health buckets add up.

type Seeded = { id: string; endpointId: string; eventType: string; status: string; msgId: string; eventId: string; at: number };

const HOUR = 3600_000;

describe("portal read models", () => {
  let t: Tenant;
  let portal: PortalClient;
  let appId: string;
  let eps: string[];
  const rows: Seeded[] = [];
  const statuses = ["succeeded", "failed", "pending", "sending", "canceled"] as const;

  beforeAll(async () => {
    t = await createTenant("portal-read");
    appId = (await t.api("POST", "/app", { name: "Reads" })).body.id;
    for (const name of ["order.created", "order.paid", "invoice.sent"]) await t.api("POST", "/event-type", { name, description: name });
    eps = [];
    for (const u of ["a", "b"]) eps.push((await t.api("POST", `/app/${appId}/endpoint`, { url: `https://hooks.example.com/${u}`, disabled: true })).body.id);
    const now = Date.now();
    // 40 deliveries over the last 40 hours: rotating statuses, event types and endpoints.
    for (let i = 0; i < 40; i++) {
      const eventType = ["order.created", "order.paid", "invoice.sent"][i % 3]!;
      const endpointId = eps[i % 2]!;
      const status = statuses[i % 5]!;
      const eventId = `evt-${i}`;
      const msg = (await t.api("POST", `/app/${appId}/msg`, { eventType, payload: { i }, eventId })).body;
      const at = now - (40 - i) * HOUR + 60_000;
      const attempts =
        status === "succeeded"
          ? [{ ok: false, code: 503, at: new Date(at) }, { ok: true, code: 200, at: new Date(at + 1000) }]
          : status === "failed"
            ? [{ ok: false, code: i % 2 ? 500 : 0, at: new Date(at) }]
            : status === "pending" && i % 3 === 0
              ? []
              : status === "canceled"
                ? []
                : [{ ok: false, code: 502, at: new Date(at) }];
      const d = await seedDelivery(t, { appId, endpointId, messageId: msg.id, eventType, status, attempts, at: new Date(at) });
      rows.push({ id: d.id, endpointId, eventType, status, msgId: msg.id, eventId, at });
    }
    portal = await portalSession(t, appId);
  });

  const logStatus = (r: Seeded) => {
    if (r.status === "succeeded") return "succeeded";
    if (r.status === "failed") return "dead_lettered";
    if (r.status === "canceled") return "canceled";
    const i = rows.indexOf(r);
    const attempted = !(r.status === "pending" && i % 3 === 0);
    return attempted ? "failed" : "pending";
  };

  async function all(query: string, limit = 7) {
    const seen: string[] = [];
    let iterator: string | null = null;
    for (let page = 0; page < 20; page++) {
      const r = await portal.api("GET", `/portal/app/${appId}/delivery?limit=${limit}${query}${iterator ? `&iterator=${iterator}` : ""}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      seen.push(...r.body.data.map((d: { id: string }) => d.id));
      if (r.body.done) return seen;
      iterator = r.body.iterator;
    }
    throw new Error("did not finish");
  }

  const expected = (pred: (r: Seeded) => boolean) =>
    rows
      .filter(pred)
      .map((r) => r.id)
      .sort()
      .reverse();

  it("lists every delivery newest first across pages", async () => {
    expect(await all("")).toEqual(expected(() => true));
  });

  it("filters by each status as the portal names them", async () => {
    for (const s of ["succeeded", "failed", "pending", "dead_lettered", "canceled"]) {
      const got = await all(`&status=${s}`);
      expect(got, s).toEqual(expected((r) => logStatus(r) === s));
      expect(got.length, s).toBeGreaterThan(0);
    }
    expect(await all("&status=failed,dead_lettered")).toEqual(expected((r) => ["failed", "dead_lettered"].includes(logStatus(r))));
  });

  it("filters by endpoint, event type, time range and their combinations", async () => {
    expect(await all(`&endpoint_id=${eps[0]}`)).toEqual(expected((r) => r.endpointId === eps[0]));
    expect(await all("&event_types=order.paid")).toEqual(expected((r) => r.eventType === "order.paid"));
    expect(await all("&event_types=order.paid,invoice.sent")).toEqual(expected((r) => r.eventType !== "order.created"));
    expect(await all(`&endpoint_id=${eps[1]}&event_types=order.created&status=succeeded`)).toEqual(
      expected((r) => r.endpointId === eps[1] && r.eventType === "order.created" && logStatus(r) === "succeeded"),
    );
    const after = new Date(Date.now() - 24 * HOUR).toISOString();
    const before = new Date(Date.now() - 6 * HOUR).toISOString();
    expect(await all(`&after=${after}&before=${before}`)).toEqual(
      expected((r) => r.at > Date.now() - 24 * HOUR && r.at < Date.now() - 6 * HOUR),
    );
    expect(await all(`&after=${after}&status=dead_lettered&event_types=order.paid`)).toEqual(
      expected((r) => r.at > Date.now() - 24 * HOUR && logStatus(r) === "dead_lettered" && r.eventType === "order.paid"),
    );
  });

  it("finds a delivery by message id and by event id", async () => {
    const r = rows[17]!;
    for (const q of [r.msgId, r.eventId]) {
      const res = await portal.api("GET", `/portal/app/${appId}/delivery?search=${q}`);
      expect(res.body.data.map((d: { id: string }) => d.id)).toEqual([r.id]);
      expect(res.body.data[0].eventId).toBe(r.eventId);
    }
  });

  it("finds deliveries by the start of a message id or event id, only in the session's application", async () => {
    const ids = async (q: string) => {
      const res = await portal.api("GET", `/portal/app/${appId}/delivery?limit=100&search=${encodeURIComponent(q)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.map((d: { id: string }) => d.id);
    };
    // evt-1, evt-10 … evt-19.
    expect(await ids("evt-1")).toEqual(expected((r) => r.eventId.startsWith("evt-1")));
    expect((await ids("evt-1")).length).toBe(11);
    // A message id's first characters (its millisecond time, to about a second), in any case.
    const prefix = rows[5]!.msgId.slice(0, "msg_".length + 8);
    expect(await ids(prefix.toUpperCase())).toEqual(expected((r) => r.msgId.startsWith(prefix)));
    expect(await ids(rows[5]!.msgId.slice(0, -3))).toEqual([rows[5]!.id]);
    // LIKE's wildcards are the characters themselves, not patterns.
    expect(await ids("evt%")).toEqual([]);
    expect(await ids("evt_1")).toEqual([]);
    // Another application of the same tenant with the same event ids is not searched.
    const other = (await t.api("POST", "/app", { name: "Other reads" })).body.id;
    await t.api("POST", `/app/${other}/msg`, { eventType: "order.paid", payload: {}, eventId: "evt-1-elsewhere" });
    expect(await ids("evt-1-")).toEqual([]);
  });

  it("walks back with prevIterator to exactly the previous page", async () => {
    const first = await portal.api("GET", `/portal/app/${appId}/delivery?limit=5`);
    const second = await portal.api("GET", `/portal/app/${appId}/delivery?limit=5&iterator=${first.body.iterator}`);
    const back = await portal.api("GET", `/portal/app/${appId}/delivery?limit=5&iterator=${second.body.prevIterator}`);
    expect(back.body.data.map((d: { id: string }) => d.id)).toEqual(first.body.data.map((d: { id: string }) => d.id));
  });

  it("rejects unknown statuses with a 422 that names them", async () => {
    const r = await portal.api("GET", `/portal/app/${appId}/delivery?status=exploded`);
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toMatch(/succeeded, failed, pending, dead_lettered/);
  });

  it("shows a delivery's attempts in order with request and response", async () => {
    const r = rows.find((x) => x.status === "succeeded")!;
    const res = await portal.api("GET", `/portal/app/${appId}/delivery/${r.id}`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("succeeded");
    expect(res.body.attempts.map((a: { responseStatusCode: number }) => a.responseStatusCode)).toEqual([503, 200]);
    expect(res.body.attempts[0].request.headers["webhook-signature"]).toBe("v1,seeded");
    expect(res.body.message.id).toBe(r.msgId);
  });

  it("groups failures by endpoint and status code", async () => {
    const res = await portal.api("GET", `/portal/app/${appId}/failure`);
    const failing = rows.filter((r) => ["failed", "dead_lettered"].includes(logStatus(r)));
    const groups = new Map<string, { dead: number; failing: number }>();
    for (const r of failing) {
      const i = rows.indexOf(r);
      const code = r.status === "failed" ? (i % 2 ? 500 : 0) : 502;
      const key = `${r.endpointId} ${code}`;
      const g = groups.get(key) ?? { dead: 0, failing: 0 };
      if (r.status === "failed") g.dead++;
      else g.failing++;
      groups.set(key, g);
    }
    const got = new Map<string, { dead: number; failing: number }>(
      res.body.data.map((g: { endpointId: string; statusCode: number; deadLettered: number; failing: number }) => [
        `${g.endpointId} ${g.statusCode}`,
        { dead: g.deadLettered, failing: g.failing },
      ]),
    );
    expect(got).toEqual(groups);
  });

  it("adds up the last 24 hours of attempts per endpoint", async () => {
    const res = await portal.api("GET", `/portal/app/${appId}/endpoint-health`);
    expect(res.status).toBe(200);
    const start = new Date(res.body.windowStart).getTime();
    for (const ep of eps) {
      const h = res.body.data.find((x: { endpointId: string }) => x.endpointId === ep);
      const recent = rows.filter((r) => r.endpointId === ep && r.at >= start);
      const success = recent.filter((r) => r.status === "succeeded").length;
      const attempts = await t.db.attempt.findMany({ where: { endpointId: ep, createdAt: { gte: new Date(start) } } });
      expect(h.success).toBe(success);
      expect(h.success + h.fail).toBe(attempts.length);
      expect(h.buckets).toHaveLength(24);
      expect(h.buckets.reduce((n: number, b: { success: number; fail: number }) => n + b.success + b.fail, 0)).toBe(attempts.length);
    }
  });
});
