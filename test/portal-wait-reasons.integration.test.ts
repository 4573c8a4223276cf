import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiverPool } from "./helpers/receiver";
import { createTenant, type Tenant } from "./helpers/tenant";
import { portalSession, seedDelivery, type PortalClient } from "./helpers/portal";

// Every waiting delivery says why it waits and until when, as the real worker holds it: behind
// an open circuit (with the next probe's time, the same as the endpoint's), parked at the
// endpoint's in-flight limit, throttled, on a retry timer, or on a paused endpoint. The log row
// and the inspector give the same reason.

type Row = { id: string; msgId: string; waiting: { kind: string; [k: string]: unknown } | null };

const receivers = receiverPool();
afterAll(() => receivers.closeAll());

async function poll<T>(fn: () => Promise<T | null | undefined | false>, what: string, ms = 20_000, seen?: () => unknown): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${seen ? `; last seen ${JSON.stringify(seen())}` : ""}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("why a delivery waits", () => {
  let t: Tenant;
  let appId: string;
  let portal: PortalClient;
  const logs = async (endpointId: string) => {
    const r = await portal.api("GET", `/portal/app/${appId}/delivery?endpoint_id=${endpointId}&limit=50`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data as Row[];
  };
  const inspect = async (id: string) => {
    const r = await portal.api("GET", `/portal/app/${appId}/delivery/${id}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as { waiting: Row["waiting"] };
  };
  const publish = async (n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await t.api("POST", `/app/${appId}/msg`, { eventType: "wait.test", payload: { i } })).body.id);
    return ids;
  };

  beforeAll(async () => {
    t = await createTenant("portal-wait");
    appId = (await t.api("POST", "/app", { name: "Waits" })).body.id;
    await t.api("POST", "/event-type", { name: "wait.test", description: "test" });
    portal = await portalSession(t, appId);
  });

  it("behind an open circuit: since when and the next probe; retries on a timer say their time", async () => {
    const rx = await receivers.start((_r, res) => void res.writeHead(500).end("down"));
    const ep = (await t.api("POST", `/app/${appId}/endpoint`, { url: rx.url, retrySchedule: [3600], filterTypes: ["wait.test"] })).body;
    // Ten failed first attempts in a row open the circuit (CIRCUIT_OPEN_AFTER_FAILURES).
    await publish(10);
    await rx.waitFor(10);
    const endpoint = await poll(async () => {
      const r = await t.api("GET", `/app/${appId}/endpoint/${ep.id}`);
      return r.body.circuitState === "open" && r.body;
    }, "the circuit to open");
    expect(Date.parse(endpoint.circuitNextProbeAt)).toBeGreaterThan(Date.parse(endpoint.circuitOpenedAt));
    const [held] = await publish(1);
    const rows = await poll(async () => {
      const all = await logs(ep.id);
      return all.find((r) => r.msgId === held)?.waiting?.kind === "circuit_open" && all;
    }, "the new delivery to be held by the circuit");
    const row = rows.find((r) => r.msgId === held)!;
    // The same moments as the endpoint's own fields: the outage's start, the opening, the probe.
    expect(endpoint).toMatchObject({ consecutiveFailures: 10, failingSince: expect.any(String) });
    expect(row.waiting).toEqual({
      kind: "circuit_open",
      failingSince: endpoint.failingSince,
      openedAt: endpoint.circuitOpenedAt,
      failures: 10,
      nextProbeAt: endpoint.circuitNextProbeAt,
      probing: false,
    });
    expect(rx.received).toHaveLength(10); // held, not sent
    for (const r of rows.filter((r) => r.msgId !== held)) {
      expect(r.waiting).toMatchObject({ kind: "scheduled", first: false, circuit: { nextProbeAt: endpoint.circuitNextProbeAt } });
      expect(Date.parse(r.waiting!.at as string)).toBeGreaterThan(Date.now() + 2800_000) // 1 h, less at most 20% jitter;
    }
    expect((await inspect(row.id)).waiting).toEqual(row.waiting);

    // A resend (past the circuit) fails too: the circuit's last failure moves to that attempt, and
    // the wait reason counts it with its time, while the outage's start stays where it was.
    expect((await t.api("POST", `/app/${appId}/msg/${held}/endpoint/${ep.id}/resend`)).status).toBe(202);
    await rx.waitFor(11);
    const again = await poll(async () => {
      const r = await t.api("GET", `/app/${appId}/endpoint/${ep.id}`);
      return r.body.consecutiveFailures === 11 && r.body;
    }, "the failed resend to be recorded");
    expect(again).toMatchObject({ circuitState: "open", failingSince: endpoint.failingSince });
    expect(Date.parse(again.circuitOpenedAt)).toBeGreaterThan(Date.parse(endpoint.circuitOpenedAt));
    const againRow = (await logs(ep.id)).find((r) => r.msgId === held)!;
    expect(againRow.waiting).toMatchObject({
      kind: "circuit_open",
      failingSince: endpoint.failingSince,
      openedAt: again.circuitOpenedAt,
      failures: 11,
    });
    expect((await inspect(row.id)).waiting).toEqual(againRow.waiting);
    await t.api("PATCH", `/app/${appId}/endpoint/${ep.id}`, { disabled: true });
  });

  it("parked at the endpoint's in-flight limit", async () => {
    const held: ServerResponse[] = [];
    let holding = true;
    const rx = await receivers.start((_r, res) => void (holding ? held.push(res) : res.writeHead(200).end("ok")));
    const ep = (await t.api("POST", `/app/${appId}/endpoint`, { url: rx.url, filterTypes: ["wait.test"] })).body;
    try {
      // The test server runs with the default cap of 10 requests in flight per endpoint.
      await publish(13);
      await rx.waitFor(10);
      let last: Row[] = [];
      const rows = await poll(
        async () => {
          last = await logs(ep.id);
          return last.filter((r) => r.waiting?.kind === "in_flight_limit").length === 3 && last;
        },
        "three deliveries parked at the cap",
        10_000,
        () => last.map((r) => r.waiting?.kind),
      );
      expect(rows.filter((r) => r.waiting?.kind === "sending")).toHaveLength(10);
      const parked = rows.find((r) => r.waiting?.kind === "in_flight_limit")!;
      expect(parked.waiting).toEqual({ kind: "in_flight_limit", limit: 10 });
      expect((await inspect(parked.id)).waiting).toEqual(parked.waiting);
    } finally {
      holding = false;
      for (const res of held) res.writeHead(200).end("ok");
    }
    // Released: the parked ones go out, and nothing says it waits any more.
    await rx.waitFor(13);
    await poll(async () => (await logs(ep.id)).every((r) => r.waiting === null), "every delivery to finish");
    await t.api("PATCH", `/app/${appId}/endpoint/${ep.id}`, { disabled: true });
  });

  it("throttled to the endpoint's rate", async () => {
    const rx = await receivers.start();
    const ep = (await t.api("POST", `/app/${appId}/endpoint`, { url: rx.url, rateLimit: 1, filterTypes: ["wait.test"] })).body;
    await publish(5);
    const rows = await poll(async () => {
      const all = await logs(ep.id);
      return all.some((r) => r.waiting?.kind === "throttled") && all;
    }, "a throttled delivery");
    expect(rows.find((r) => r.waiting?.kind === "throttled")!.waiting).toEqual({ kind: "throttled", ratePerSecond: 1 });
    await rx.waitFor(5, 20_000);
    await t.api("PATCH", `/app/${appId}/endpoint/${ep.id}`, { disabled: true });
  });

  it("on a paused endpoint", async () => {
    const ep = (await t.api("POST", `/app/${appId}/endpoint`, { url: "https://hooks.example.com/paused", disabled: true })).body;
    const msg = (await t.api("POST", `/app/${appId}/msg`, { eventType: "wait.test", payload: {} })).body;
    const d = await seedDelivery(t, { appId, endpointId: ep.id, messageId: msg.id, eventType: "wait.test", status: "pending", attempts: [{ ok: false, code: 502 }] });
    const row = (await logs(ep.id)).find((r) => r.id === d.id)!;
    expect(row.waiting).toMatchObject({ kind: "endpoint_paused" });
    expect(typeof row.waiting!.dueAt).toBe("string");
  });
});
