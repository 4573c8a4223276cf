import type { ChildProcess } from "node:child_process";
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/ids";
import { gateKey } from "@/lib/delivery/endpoint-gate";
import { PARKED_EVERY } from "@/lib/delivery/sweep-deliveries";
import { masterConnections } from "@/lib/queue/redis-topology.mjs";
import { startStack, type Stack } from "./helpers/stack";
import { bullPrefix, testRedis } from "./helpers/redis";
import { receiverPool, type Received, type Receiver, type Responder } from "./helpers/receiver";
import { makeApp, makeEndpoint, publish, waitUntil } from "./helpers/delivery";

// Durability under faults, on a private stack whose worker can be killed: PostgreSQL is the
// source of truth, so a worker killed with SIGKILL mid-delivery, Redis losing every key of the
// stack, or a crash between commit and enqueue lose nothing — every message reaches its receiver
// at least once, and the database agrees with what the receivers saw. SIGTERM drains in-flight
// requests before the worker exits. Short timeouts keep leases and stall detection to seconds.

const slowly = (ms: number) => (_r: Received, res: ServerResponse) =>
  void setTimeout(() => res.writeHead(200).end("ok"), ms);

describe("delivery under faults", () => {
  let s: Stack;
  let worker: ChildProcess;
  const receivers = receiverPool();

  beforeAll(async () => {
    s = await startStack({
      workerEnv: {
        HERALD_REQUEST_TIMEOUT_MS: "3000",
        HERALD_CONNECT_TIMEOUT_MS: "1000",
        HERALD_WORKER_STALLED_MS: "3000",
        HERALD_DELIVERY_SWEEP_MS: "1000",
        HERALD_RETRY_SCHEDULE: "1,1,1,1,1,1,1,1",
      },
    });
    worker = s.startWorker();
  });
  afterAll(async () => {
    await s?.close();
    await receivers.closeAll();
  });

  /** An app with `n` endpoints on one receiver (paths /webhook/0…n-1). */
  async function fanOut(n: number, respond?: Responder) {
    const rx = await receivers.start(respond);
    const appId = await makeApp(s.api);
    const endpoints: string[] = [];
    for (let i = 0; i < n; i++) endpoints.push((await makeEndpoint(s.api, appId, { url: `${rx.url}/${i}` })).id);
    return { rx, appId, endpoints };
  }

  /**
   * Every delivery of the app succeeded; every one reached its endpoint's path at least once;
   * every attempt the database recorded as sent was seen by the receiver (same signature), and
   * nothing arrived that the database does not know about.
   */
  async function expectDatabaseAgreesWithReceiver(appId: string, endpoints: string[], rx: Receiver, count: number) {
    try {
      await waitUntil(
        `all ${count} deliveries to succeed`,
        () => s.db.delivery.count({ where: { applicationId: appId, status: "succeeded" } }),
        (n) => n === count,
        120_000,
      );
    } catch (e) {
      // Say where the stragglers are, for whoever has to debug this.
      const stuck = await s.db.delivery.findMany({
        where: { applicationId: appId, status: { not: "succeeded" } },
        take: 5,
      });
      const redis = testRedis();
      for (const d of stuck) {
        const keys = await redis.exists(`${bullPrefix(s.prefix)}:deliveries:${d.id}`);
        const parked = await redis.zscore(gateKey(s.prefix, d.endpointId, "parked"), `${d.id}:scheduled`);
        const attempts = await s.db.attempt.findMany({
          where: { deliveryId: d.id },
          select: { status: true, errorClass: true, createdAt: true },
        });
        console.error(JSON.stringify({ delivery: d, keys, parked, attempts, now: new Date() }));
      }
      redis.disconnect();
      throw e;
    }
    expect(await s.db.delivery.count({ where: { applicationId: appId } })).toBe(count);
    const pathOf = new Map(endpoints.map((id, i) => [id, `/webhook/${i}`]));
    const seen = new Map<string, number>(); // path|webhook-id|signature -> receipts
    for (const r of rx.received) {
      const key = `${r.path}|${r.headers["webhook-id"]}|${r.headers["webhook-signature"]}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    const deliveries = await s.db.delivery.findMany({
      where: { applicationId: appId },
      select: { messageId: true, endpointId: true },
    });
    const receivedIds = new Set(rx.received.map((r) => `${r.path}|${r.headers["webhook-id"]}`));
    for (const d of deliveries) expect(receivedIds.has(`${pathOf.get(d.endpointId)}|${d.messageId}`)).toBe(true);
    expect(receivedIds.size).toBe(count);

    const attempts = await s.db.attempt.findMany({
      where: { applicationId: appId, OR: [{ errorClass: null }, { errorClass: { not: "interrupted" } }] },
      select: { endpointId: true, messageId: true, requestHeaders: true, status: true },
    });
    const recorded = new Map<string, number>();
    for (const a of attempts) {
      const sig = (a.requestHeaders as Record<string, string>)["webhook-signature"];
      const key = `${pathOf.get(a.endpointId)}|${a.messageId}|${sig}`;
      recorded.set(key, (recorded.get(key) ?? 0) + 1);
    }
    for (const [key, n] of recorded) expect(seen.get(key) ?? 0, key).toBeGreaterThanOrEqual(n);
    // Each delivery has exactly one successful attempt.
    expect(attempts.filter((a) => a.status === "success")).toHaveLength(count);
    expect(await s.db.delivery.count({ where: { applicationId: appId, status: "sending" } })).toBe(0);
  }

  it("delivers what was committed but never enqueued (the web process died in between): the sweeper finds it", async () => {
    const { rx, appId, endpoints } = await fanOut(1, undefined);
    const msgId = newId("message");
    await s.db.message.create({
      data: {
        id: msgId,
        environmentId: s.environmentId,
        applicationId: appId,
        eventType: "order.paid",
        payload: { lost: true },
        channels: [],
      },
    });
    await s.db.delivery.create({
      data: {
        id: newId("delivery"),
        environmentId: s.environmentId,
        applicationId: appId,
        endpointId: endpoints[0]!,
        messageId: msgId,
        eventType: "order.paid",
        nextAttemptAt: new Date(),
      },
    });
    await rx.waitFor(1, 30_000);
    expect(rx.received[0]!.headers["webhook-id"]).toBe(msgId);
    await expectDatabaseAgreesWithReceiver(appId, endpoints, rx, 1);
  });

  it("re-enqueues a lost delivery of an endpoint that has parked deliveries, on the sweeper's next full run", async () => {
    // The sweeper checks such endpoints' deliveries on every PARKED_EVERY-th run only (a stuck
    // endpoint's parked backlog is thousands of overdue rows to read and look up). An endpoint
    // whose circuit is open keeps its parked deliveries; one that Redis lost must still come back.
    const { appId, endpoints } = await fanOut(1, undefined);
    const ep = endpoints[0]!;
    await s.db.endpoint.update({ where: { id: ep }, data: { circuitState: "open", circuitOpenedAt: new Date() } });
    const redis = testRedis();
    await redis.zadd(gateKey(s.prefix, ep, "parked"), Date.now(), `${newId("delivery")}:scheduled`);
    await redis.sadd(`${s.prefix}:gate:parked-endpoints`, ep);
    const msgId = newId("message");
    const dlvId = newId("delivery");
    await s.db.message.create({
      data: { id: msgId, environmentId: s.environmentId, applicationId: appId, eventType: "order.paid", payload: { parked: true }, channels: [] },
    });
    await s.db.delivery.create({
      data: { id: dlvId, environmentId: s.environmentId, applicationId: appId, endpointId: ep, messageId: msgId, eventType: "order.paid", nextAttemptAt: new Date() },
    });
    // Sweeps run every second here: a full one within PARKED_EVERY of them, after a second's grace.
    // Enqueued again, the delivery meets the open circuit and is parked like the others.
    try {
      await waitUntil(
        "the lost delivery to be parked",
        () => redis.zscore(gateKey(s.prefix, ep, "parked"), `${dlvId}:scheduled`),
        (score) => score !== null,
        (PARKED_EVERY + 2) * 1000 + 10_000,
      );
    } finally {
      redis.disconnect();
    }
  }, 60_000);

  it("SIGTERM: the worker finishes and records the requests in flight, then exits", async () => {
    const { rx, appId, endpoints } = await fanOut(1, slowly(1500));
    for (let i = 0; i < 5; i++) await publish(s.api, appId, { drain: i });
    await rx.waitFor(5);
    const w = worker;
    await s.stopWorker("SIGTERM");
    expect(w.exitCode).toBe(0);
    // Nothing is left half-done: every request that was in flight has its attempt recorded.
    expect(await s.db.delivery.count({ where: { applicationId: appId, status: "succeeded" } })).toBe(5);
    expect(await s.db.attempt.count({ where: { applicationId: appId } })).toBe(5);
    worker = s.startWorker();
    await expectDatabaseAgreesWithReceiver(appId, endpoints, rx, 5);
  });

  it("SIGKILL with 2,000 deliveries in flight loses nothing; interrupted attempts are recorded as such", async () => {
    const { rx, appId, endpoints } = await fanOut(20, slowly(300));
    // 100 messages x 20 endpoints = 2,000 deliveries, queued while the worker is stopped.
    await s.stopWorker("SIGTERM");
    await Promise.all(Array.from({ length: 100 }, (_, i) => publish(s.api, appId, { kill: i })));
    worker = s.startWorker();
    await rx.waitFor(100, 60_000);
    await s.stopWorker("SIGKILL");
    const unfinished = await s.db.delivery.count({
      where: { applicationId: appId, status: { in: ["pending", "sending"] } },
    });
    expect(unfinished).toBeGreaterThan(1500);
    expect(await s.db.delivery.count({ where: { applicationId: appId, status: "sending" } })).toBeGreaterThan(0);
    worker = s.startWorker();
    await expectDatabaseAgreesWithReceiver(appId, endpoints, rx, 2000);
    expect(await s.db.attempt.count({ where: { applicationId: appId, errorClass: "interrupted" } })).toBeGreaterThan(0);
  }, 180_000);

  it("Redis losing every key mid-run (FLUSHALL of the stack's prefix) loses nothing: the sweeper re-enqueues from PostgreSQL", async () => {
    const { rx, appId, endpoints } = await fanOut(10, slowly(50));
    await Promise.all(Array.from({ length: 100 }, (_, i) => publish(s.api, appId, { flush: i })));
    await rx.waitFor(200, 60_000);
    // Herald's keys and BullMQ's (hash-tagged prefix), on every master of a cluster.
    const redis = testRedis();
    let deleted = 0;
    for (const node of masterConnections(redis))
      for (const pattern of [`${s.prefix}:*`, `${bullPrefix(s.prefix)}:*`]) {
        let cursor = "0";
        do {
          const [next, keys] = await node.scan(cursor, "MATCH", pattern, "COUNT", 1000);
          cursor = next;
          for (const k of keys) deleted += await node.del(k);
        } while (cursor !== "0");
      }
    redis.disconnect();
    expect(deleted).toBeGreaterThan(0);
    await expectDatabaseAgreesWithReceiver(appId, endpoints, rx, 1000);
  }, 180_000);
});
