import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELIVERY_COUNTS_SQL } from "@/lib/applications/application-summaries";
import { UNFINISHED_COUNTED } from "@/lib/portal/delivery-status";
import { idAtTime } from "@/lib/ids";
import { sqlPool } from "@/lib/sql";
import { receiverPool } from "./helpers/receiver";
import { createTenant, type Tenant } from "./helpers/tenant";
import { portalSession, type PortalClient } from "./helpers/portal";
import { seedHistory } from "./helpers/seed-history";
import { waitForTask } from "./helpers/tasks";

// An application in trouble looks it in every view that counts its deliveries: the console's
// application list counts, beside the delivered and dead ones of 24 h, the deliveries failing
// now (retrying after a failed attempt) and those held behind an open circuit (not tried yet);
// the Failures view counts the held ones too, per endpoint, with the next probe they wait for;
// both agree with the portal's log. All with the real worker: an endpoint that answers 500 until
// its circuit opens. "Retry all" of a group that is only retrying leaves it alone (it applies to
// dead-lettered deliveries), which is what the Failures page says.

const receivers = receiverPool();
afterAll(() => receivers.closeAll());

async function poll<T>(fn: () => Promise<T | null | undefined | false>, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

type Summary = { id: string; last24h: { succeeded: number; failed: number; successRate: number | null }; unfinished: { failing: number; held: number; capped: boolean } };

describe("counting deliveries that fail or are held, in the console and the portal", () => {
  let t: Tenant;
  let appId: string;
  let quietId: string;
  let portal: PortalClient;
  const publish = async (eventType: string, n: number) => {
    for (let i = 0; i < n; i++) expect((await t.api("POST", `/app/${appId}/msg`, { eventType, payload: { i } })).status).toBe(202);
  };
  const summaries = async () => {
    const r = await t.api("GET", "/environment/app-summary");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data as Summary[];
  };
  const logs = async (endpointId: string, status?: string) => {
    const r = await portal.api("GET", `/portal/app/${appId}/delivery?endpoint_id=${endpointId}&limit=50${status ? `&status=${status}` : ""}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data as { id: string; status: string; waiting: { kind: string } | null }[];
  };

  beforeAll(async () => {
    t = await createTenant("delivery-counts");
    quietId = (await t.api("POST", "/app", { name: "Quiet" })).body.id;
    appId = (await t.api("POST", "/app", { name: "Troubled" })).body.id;
    for (const name of ["count.ok", "count.dead", "count.fail"]) await t.api("POST", "/event-type", { name, description: "test" });
    portal = await portalSession(t, appId);
  });

  it("counts delivered, dead, failing and held deliveries alike in the application list and Failures", async () => {
    const ok = await receivers.start((_r, res) => void res.writeHead(200).end("ok"));
    const rejecting = await receivers.start((_r, res) => void res.writeHead(422).end("unprocessable"));
    const down = await receivers.start((_r, res) => void res.writeHead(500).end("down"));
    await t.api("POST", `/app/${appId}/endpoint`, { url: ok.url, filterTypes: ["count.ok"] });
    // 422 is not retried: dead-lettered on the first attempt.
    const deadEp = (await t.api("POST", `/app/${appId}/endpoint`, { url: rejecting.url, filterTypes: ["count.dead"] })).body;
    const ep = (await t.api("POST", `/app/${appId}/endpoint`, { url: down.url, retrySchedule: [3600], filterTypes: ["count.fail"] })).body;
    await publish("count.ok", 3);
    await publish("count.dead", 2);
    // Ten failed first attempts in a row open the circuit (CIRCUIT_OPEN_AFTER_FAILURES); each of
    // the ten then waits an hour for its retry.
    await publish("count.fail", 10);
    await Promise.all([ok.waitFor(3), rejecting.waitFor(2), down.waitFor(10)]);
    const endpoint = await poll(async () => {
      const r = await t.api("GET", `/app/${appId}/endpoint/${ep.id}`);
      return r.body.circuitState === "open" && r.body;
    }, "the circuit to open");
    // Three more are held by the open circuit, never sent.
    await publish("count.fail", 3);
    await poll(async () => (await logs(ep.id)).filter((r) => r.waiting?.kind === "circuit_open").length === 3, "three deliveries held by the circuit");
    expect(down.received).toHaveLength(10);

    const rows = await poll(async () => {
      const all = await summaries();
      const s = all.find((a) => a.id === appId);
      return s && s.last24h.succeeded + s.last24h.failed === 5 && all;
    }, "the delivered and dead ones to finish");
    const troubled = rows.find((a) => a.id === appId)!;
    expect(troubled.last24h).toEqual({ succeeded: 3, failed: 2, successRate: 3 / 5 });
    expect(troubled.unfinished).toEqual({ failing: 10, held: 3, capped: false });
    expect(rows.find((a) => a.id === quietId)).toMatchObject({ last24h: { succeeded: 0, failed: 0, successRate: null }, unfinished: { failing: 0, held: 0 } });

    // The portal's log names the same deliveries: ten "failed" (retrying), three waiting on the circuit.
    expect(await logs(ep.id, "failed")).toHaveLength(10);
    expect((await logs(ep.id, "pending")).map((r) => r.waiting?.kind)).toEqual(["circuit_open", "circuit_open", "circuit_open"]);

    // Failures: the retrying group, the dead one, and the held ones with the probe they wait for.
    const failures = await portal.api("GET", `/portal/app/${appId}/failure`);
    expect(failures.status, JSON.stringify(failures.body)).toBe(200);
    const groups = failures.body.data as { endpointId: string; statusCode: number; deadLettered: number; failing: number }[];
    expect(groups.map((g) => [g.endpointId, g.statusCode, g.deadLettered, g.failing]).sort()).toEqual(
      [
        [ep.id, 500, 0, 10],
        [deadEp.id, 422, 2, 0],
      ].sort(),
    );
    expect(failures.body.held).toEqual([
      {
        endpointId: ep.id,
        endpoint: expect.objectContaining({ url: down.url, state: "active", circuitState: "open" }),
        held: 3,
        heldCapped: false,
        circuitOpenedAt: endpoint.circuitOpenedAt,
        nextProbeAt: endpoint.circuitNextProbeAt,
      },
    ]);
    // The console's Failures tab reads the same route with an operator's credentials.
    expect((await t.api("GET", `/portal/app/${appId}/failure`)).body.held).toEqual(failures.body.held);

    // "Retry all" of the retrying group: bulk retry takes dead-lettered deliveries only, so the
    // ten keep their hour-long schedule, nothing is sent and the counts stay.
    const before = await t.db.delivery.findMany({ where: { endpointId: ep.id, attemptCount: { gt: 0 } }, select: { id: true, nextAttemptAt: true }, orderBy: { id: "asc" } });
    const bulk = await t.api("POST", `/app/${appId}/bulk-retry`, { endpoint_id: ep.id, status_code: 500 });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(202);
    expect(await waitForTask(t.api, bulk.body.task_id)).toMatchObject({ status: "completed", done: 0, total: 0 });
    expect(await t.db.delivery.findMany({ where: { endpointId: ep.id, attemptCount: { gt: 0 } }, select: { id: true, nextAttemptAt: true }, orderBy: { id: "asc" } })).toEqual(before);
    expect((await summaries()).find((a) => a.id === appId)!.unfinished).toEqual({ failing: 10, held: 3, capped: false });
    expect(down.received).toHaveLength(10);
    await t.api("PATCH", `/app/${appId}/endpoint/${ep.id}`, { disabled: true });
  });

  it("reads the page's counts in one statement through the (application_id, status, id) index", async () => {
    // Enough history elsewhere that reading the whole table would be the planner's worst choice.
    const big = await createTenant("delivery-counts-big");
    const other = (await big.api("POST", "/app", { name: "Busy" })).body.id;
    const otherEp = (await big.api("POST", `/app/${other}/endpoint`, { url: "https://hooks.example.com/busy", disabled: true })).body.id;
    await seedHistory(big.db, {
      environmentId: big.environmentId,
      applicationId: other,
      eventType: "count.ok",
      count: 20_000,
      startAt: new Date(Date.now() - 3600_000),
      delivery: { endpointId: otherEp, status: (i) => (i % 10 === 0 ? "pending" : "succeeded") },
    });
    await sqlPool().query("ANALYZE delivery");
    await sqlPool().query("ANALYZE endpoint");
    const dayAgo = idAtTime("delivery", new Date(Date.now() - 86_400_000));
    const plan = await sqlPool().query(`EXPLAIN ${DELIVERY_COUNTS_SQL}`, [[appId, quietId], dayAgo, UNFINISHED_COUNTED]);
    const text = plan.rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n");
    // Both branches (finished in 24 h, unfinished) read an index led by application_id (the
    // planner may take (application_id, event_type, id) for the id range); never the whole table.
    const scans = [...text.matchAll(/(?:Index|Index Only) Scan using (\w+) on delivery|Bitmap Index Scan on (delivery_\w+)/g)].map((m) => m[1] ?? m[2]);
    expect(scans, text).toHaveLength(2);
    for (const index of scans) expect(index, text).toMatch(/^delivery_application_id_/);
    expect(text).toContain("Index Cond: ((application_id = ANY");
    expect(text).not.toMatch(/Seq Scan on delivery/);
    // The unfinished count reads at most its cap per application (a circuit open for days holds
    // millions, and the list is polled): 2,000 are pending in the busy application, 500 read.
    const capped = await sqlPool().query(DELIVERY_COUNTS_SQL, [[other], dayAgo, 500]);
    expect(capped.rows).toEqual([expect.objectContaining({ application_id: other, counted: 500 })]);
    const uncapped = await sqlPool().query(DELIVERY_COUNTS_SQL, [[other], dayAgo, UNFINISHED_COUNTED]);
    expect(uncapped.rows).toEqual([expect.objectContaining({ application_id: other, counted: 2_000 })]);
  }, 90_000);
});
