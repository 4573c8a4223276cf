import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/ids";
import { sqlPool } from "@/lib/sql";
import { baseUrl, createTenant, type Tenant } from "./helpers/tenant";
import { portalSession, seedDelivery } from "./helpers/portal";
import { seedHistory } from "./helpers/seed-history";
import { waitUntil } from "./helpers/delivery";
import { requestJson } from "./helpers/http";

// The operator routes the console is built on (Herald extensions, ordinary operator routes):
// the environment's overview, application summaries with their 24 h success rate, API keys.
// Called with API keys here; the console calls the same routes with its session.

const HOUR = 3600_000;

describe("console API: overview, application summaries, API keys", () => {
  let t: Tenant;
  let other: Tenant;
  let busy: string;
  let quiet: string;
  let endpointId: string;

  beforeAll(async () => {
    t = await createTenant("console-api");
    other = await createTenant("console-api-other");
    expect((await t.api("POST", "/event-type", { name: "order.paid", description: "An order was paid" })).status).toBe(201);
    busy = (await t.api("POST", "/app", { name: "Busy Corp", uid: "busy-corp" })).body.id;
    quiet = (await t.api("POST", "/app", { name: "Quiet Ltd" })).body.id;
    // Paused: the worker leaves the seeded history alone.
    const ep = await t.api("POST", `/app/${busy}/endpoint`, { url: "https://hooks.example.com/console", disabled: true });
    expect(ep.status, JSON.stringify(ep.body)).toBe(201);
    endpointId = ep.body.id;
    // 30 min ago: 3 succeeded, 1 dead; 5 h ago: 2 succeeded, 2 dead; 30 h ago (outside the day): 5 dead.
    const seed = (count: number, hoursAgo: number, status: "succeeded" | "failed") =>
      seedHistory(t.db, {
        environmentId: t.environmentId,
        applicationId: busy,
        eventType: "order.paid",
        count,
        startAt: new Date(Date.now() - hoursAgo * HOUR),
        delivery: { endpointId, status },
        attempts: { url: "https://hooks.example.com/console", responseStatus: () => (status === "succeeded" ? 200 : 500) },
      });
    await seed(3, 0.5, "succeeded");
    await seed(1, 0.5, "failed");
    await seed(2, 5, "succeeded");
    await seed(2, 5, "failed");
    await seed(5, 30, "failed");
    const msg = await t.api("POST", `/app/${busy}/msg`, { eventType: "order.paid", payload: { waiting: true } });
    expect(msg.status).toBe(202);
    await seedDelivery(t, { appId: busy, endpointId, messageId: msg.body.id, eventType: "order.paid", status: "pending", attempts: [{ ok: false, code: 503 }] });
  });

  it("summarises applications with their 24 h success rate, newest first, searchable", async () => {
    const r = await t.api("GET", "/environment/app-summary");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.map((a: { id: string }) => a.id)).toEqual([quiet, busy]);
    const b = r.body.data[1];
    expect(b.name).toBe("Busy Corp");
    // 5 succeeded and 3 dead within 24 h; the 30 h old ones and the pending one do not count.
    expect(b.last24h).toEqual({ succeeded: 5, failed: 3, successRate: 5 / 8 });
    expect(r.body.data[0].last24h).toEqual({ succeeded: 0, failed: 0, successRate: null });

    for (const search of ["busy", "BUSY c", "busy-corp", busy]) {
      const s = await t.api("GET", `/environment/app-summary?search=${encodeURIComponent(search)}`);
      expect(s.body.data.map((a: { id: string }) => a.id), search).toEqual([busy]);
    }
    expect((await t.api("GET", "/environment/app-summary?search=nothing-like-it")).body.data).toEqual([]);

    const first = await t.api("GET", "/environment/app-summary?limit=1");
    expect(first.body.data.map((a: { id: string }) => a.id)).toEqual([quiet]);
    expect(first.body.done).toBe(false);
    const next = await t.api("GET", `/environment/app-summary?limit=1&iterator=${first.body.iterator}`);
    expect(next.body.data.map((a: { id: string }) => a.id)).toEqual([busy]);
    expect(next.body.done).toBe(true);

    // Another environment sees none of it; a bad limit names the field.
    expect((await other.api("GET", "/environment/app-summary")).body.data).toEqual([]);
    const bad = await t.api("GET", "/environment/app-summary?limit=0");
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(["query", "limit"]);
  });

  it("gives the environment's overview: last hour and day by outcome, waiting, dead, most failing endpoints", async () => {
    const r = await t.api("GET", "/environment/overview");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const o = r.body;
    expect(o.lastHour).toMatchObject({ succeeded: 3, failed: 1, pending: 1, sending: 0, canceled: 0, total: 5, successRate: 0.75 });
    expect(o.lastDay).toMatchObject({ succeeded: 5, failed: 3, pending: 1, total: 9, successRate: 5 / 8 });
    expect(o.hours).toHaveLength(24);
    expect(o.hours[23]).toMatchObject({ succeeded: 3, failed: 1, pending: 1 });
    expect(o.hours.reduce((n: number, h: { succeeded: number }) => n + h.succeeded, 0)).toBe(5);
    // Dead letters are every retained dead delivery (the 30 h old ones too).
    expect(o.waiting).toBe(1);
    expect(o.deadLetters).toBe(8);
    expect(o.runningTasks).toBe(0);
    expect(o.topFailing).toEqual([
      expect.objectContaining({ endpointId, applicationId: busy, applicationName: "Busy Corp", attempts: { succeeded: 5, failed: 4, successRate: 5 / 9 } }),
    ]);

    const empty = (await other.api("GET", "/environment/overview")).body;
    expect(empty.lastDay).toMatchObject({ succeeded: 0, failed: 0, pending: 0, successRate: null });
    expect(empty.deadLetters).toBe(0);
    expect(empty.topFailing).toEqual([]);
  });

  it("creates API keys (shown once), lists them without secrets, records last use, revokes", async () => {
    const created = await t.api("POST", "/environment/api-key", { name: "CI deploys" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { key, id } = created.body as { key: string; id: string };
    expect(key).toMatch(/^hk_/);
    expect(created.body.prefix).toBe(key.slice(0, 10));
    expect(created.body.lastUsedAt).toBeNull();

    const works = await requestJson("GET", `${baseUrl()}/api/v1/app`, key);
    expect(works.status).toBe(200);
    const listed = await waitUntil(
      "last use recorded",
      async () => (await t.api("GET", "/environment/api-key")).body,
      (b) => b.data.find((k: { id: string }) => k.id === id)?.lastUsedAt !== null,
    );
    expect(listed.data[0].id).toBe(id);
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(Object.keys(listed.data[0]).sort()).toEqual(["createdAt", "id", "lastUsedAt", "name", "prefix", "revokedAt"]);

    const bad = await t.api("POST", "/environment/api-key", { name: "  " });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(["body", "name"]);

    // Another environment's key id is not found, and its list does not show this key.
    expect((await other.api("DELETE", `/environment/api-key/${id}`)).status).toBe(404);
    expect((await other.api("GET", "/environment/api-key")).body.data.map((k: { id: string }) => k.id)).not.toContain(id);
    expect((await t.api("DELETE", `/environment/api-key/${newId("apiKey")}`)).status).toBe(404);

    const revoked = await t.api("DELETE", `/environment/api-key/${id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    expect((await t.api("DELETE", `/environment/api-key/${id}`)).body.revokedAt).toBe(revoked.body.revokedAt);
    // Refused once the auth cache (5 s) has let go of it.
    const refused = await waitUntil("the revoked key refused", () => requestJson("GET", `${baseUrl()}/api/v1/app`, key), (r) => r.status === 401, 10_000);
    // Said as such, not as an unknown key.
    expect(refused.body.detail).toBe(`This API key was revoked on ${revoked.body.revokedAt}; use another key (the console's API keys page, or npm run api-key)`);
  });

  it("refuses portal sessions on every console route", async () => {
    const p = await portalSession(t, busy);
    expect((await p.api("GET", "/environment/overview")).status).toBe(403);
    expect((await p.api("GET", "/environment/app-summary")).status).toBe(403);
    expect((await p.api("GET", "/environment/api-key")).status).toBe(403);
    expect((await p.api("POST", "/environment/api-key", { name: "x" })).status).toBe(403);
  });

  it("stays fast at 10,000 applications: pages, deep pages and searches use the indexes", async () => {
    const big = await createTenant("console-api-10k");
    const now = Date.now();
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      id: newId("application", now - (10_000 - i) * 1000),
      environmentId: big.environmentId,
      name: `Customer ${String(i).padStart(5, "0")}`,
      uid: `customer-${i}`,
    }));
    for (let i = 0; i < rows.length; i += 2_000) await big.db.application.createMany({ data: rows.slice(i, i + 2_000) });
    await sqlPool().query("ANALYZE application");

    const timed = async (path: string) => {
      const ms: number[] = [];
      let body: any = null;
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        const r = await big.api("GET", path);
        ms.push(performance.now() - t0);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        body = r.body;
      }
      return { median: ms.sort((a, b) => a - b)[1]!, body };
    };
    const first = await timed("/environment/app-summary?limit=50");
    expect(first.body.data).toHaveLength(50);
    expect(first.body.data[0].name).toBe("Customer 09999");
    const deep = await timed(`/environment/app-summary?limit=50&iterator=${rows[100]!.id}`);
    expect(deep.body.data[0].name).toBe("Customer 00099");
    const search = await timed("/environment/app-summary?search=customer%2005");
    expect(search.body.data).toHaveLength(50);
    const rare = await timed("/environment/app-summary?search=customer-4321");
    expect(rare.body.data.map((a: { name: string }) => a.name)).toEqual(["Customer 04321"]);
    console.log(
      `app-summary at 10k applications, median of 3 (ms): first page ${first.median.toFixed(1)}, deep page ${deep.median.toFixed(1)}, ` +
        `substring search ${search.median.toFixed(1)}, exact uid ${rare.median.toFixed(1)}`,
    );
    for (const m of [first, deep, search, rare]) expect(m.median).toBeLessThan(500);

    // The page query walks an index on id backwards (the environment's, or the primary key with
    // the environment as a filter, as the planner prefers) and stops after a page: never a sort.
    const plan = await sqlPool().query(
      `EXPLAIN SELECT * FROM application WHERE environment_id = $1 AND internal = false AND id < $2 ORDER BY id DESC LIMIT 51`,
      [big.environmentId, rows[5_000]!.id],
    );
    const text = plan.rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n");
    expect(text).toMatch(/Index Scan Backward using application_(pkey|environment_id_id_idx)/);
    expect(text).not.toMatch(/Sort/);
  });
});
