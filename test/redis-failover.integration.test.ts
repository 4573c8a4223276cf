import type { ServerResponse } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { startRedisCluster, startRedisSentinel } from "../scripts/lib/redis-servers.mjs";
import { startStack, type Stack } from "./helpers/stack";
import { bullPrefix, testRedis } from "./helpers/redis";
import { receiverPool, type Received } from "./helpers/receiver";
import { makeApp, makeEndpoint, publish } from "./helpers/delivery";
import { expectDatabaseAgreesWithReceiver } from "./helpers/agreement";

// Redis failing over while messages flow, on Redis servers of this suite's own (loopback, free
// ports, no persistence; scripts/lib/redis-servers.mjs): a Sentinel failover (the replica is
// promoted, the old master demoted), a Redis Cluster master killed and restarted empty (the one
// that holds the delivery queue), and on a cluster with replicas that master killed and its
// replica promoted by the cluster (writes it acknowledged but had not yet replicated are lost).
// No Herald process is restarted: every accepted message is delivered at least once and the
// database agrees with the receiver.

const workerEnv = {
  HERALD_REQUEST_TIMEOUT_MS: "3000",
  HERALD_CONNECT_TIMEOUT_MS: "1000",
  HERALD_WORKER_STALLED_MS: "3000",
  HERALD_DELIVERY_SWEEP_MS: "1000",
  HERALD_RETRY_SCHEDULE: "1,1,1,1,1,1,1,1",
};

const slowly = (ms: number) => (_r: Received, res: ServerResponse) => void setTimeout(() => res.writeHead(200).end("ok"), ms);

/**
 * Publishes `total` messages (one every `everyMs`) to an app with `endpoints` endpoints, calling
 * `fault` after a third of them. Publishes the API refuses while Redis is away were not accepted
 * and are not counted (none is expected: the message is committed in PostgreSQL first).
 */
async function flowThrough(s: Stack, rx: Awaited<ReturnType<ReturnType<typeof receiverPool>["start"]>>, fault: () => Promise<unknown>) {
  const appId = await makeApp(s.api);
  const endpoints: string[] = [];
  for (let i = 0; i < 3; i++) endpoints.push((await makeEndpoint(s.api, appId, { url: `${rx.url}/${i}` })).id);
  const total = 90;
  let accepted = 0;
  let refused = 0;
  let faulted: Promise<unknown> | null = null;
  for (let i = 0; i < total; i++) {
    if (i === total / 3) faulted = fault();
    try {
      await publish(s.api, appId, { flow: i });
      accepted++;
    } catch {
      refused++;
    }
    await new Promise((r) => setTimeout(r, 40));
  }
  await faulted;
  return { appId, endpoints, accepted, refused };
}

/** The port of the cluster master that owns the slot of BullMQ's hash-tagged prefix (the queues). */
async function queueMaster(s: Stack): Promise<number> {
  const redis = testRedis(s.redisEnv);
  try {
    const slot = Number(await redis.call("CLUSTER", "KEYSLOT", `${bullPrefix(s.prefix)}:deliveries`));
    const ranges = (await redis.call("CLUSTER", "SLOTS")) as [number, number, [string, number]][];
    return Number(ranges.find(([from, to]) => slot >= from && slot <= to)![2][1]);
  } finally {
    redis.disconnect();
  }
}

describe("Redis failover while messages flow", () => {
  const receivers = receiverPool();
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    await receivers.closeAll();
  });

  it("Sentinel failover: the worker and the web process follow the new master; nothing is lost", async () => {
    const sentinel = await startRedisSentinel();
    cleanups.push(() => sentinel.stop());
    const s = await startStack({ redisEnv: sentinel.env, workerEnv });
    cleanups.push(() => s.close());
    s.startWorker();
    const rx = await receivers.start(slowly(30));

    const { appId, endpoints, accepted, refused } = await flowThrough(s, rx, () => sentinel.failover());
    expect(accepted).toBeGreaterThan(0);
    console.info(`sentinel failover: ${accepted} accepted, ${refused} refused`);
    await expectDatabaseAgreesWithReceiver(s, appId, endpoints, rx, accepted * endpoints.length);
    // Herald writes to the new master now.
    const redis = testRedis(s.redisEnv);
    expect(await redis.set(`${s.prefix}:probe`, "1")).toBe("OK");
    redis.disconnect();
  }, 240_000);

  it("Redis Cluster: the master holding the queues is killed and restarts empty; the sweeper re-enqueues, nothing is lost", async () => {
    const cluster = await startRedisCluster();
    cleanups.push(() => cluster.stop());
    const s = await startStack({ redisEnv: cluster.env, workerEnv });
    cleanups.push(() => s.close());
    s.startWorker();
    const rx = await receivers.start(slowly(30));

    const node = cluster.ports.indexOf(await queueMaster(s));
    expect(node).toBeGreaterThanOrEqual(0);

    const { appId, endpoints, accepted, refused } = await flowThrough(s, rx, () => cluster.restartNode(node));
    expect(accepted).toBeGreaterThan(0);
    console.info(`cluster restart: ${accepted} accepted, ${refused} refused`);
    await expectDatabaseAgreesWithReceiver(s, appId, endpoints, rx, accepted * endpoints.length);
  }, 240_000);

  it("Redis Cluster with replicas: the master holding the queues is killed and its replica takes over; nothing is lost", async () => {
    const cluster = await startRedisCluster({ replicas: 1 });
    cleanups.push(() => cluster.stop());
    const s = await startStack({ redisEnv: cluster.env, workerEnv });
    cleanups.push(() => s.close());
    s.startWorker();
    const rx = await receivers.start(slowly(30));

    const owner = await queueMaster(s);
    let promoted = 0;
    const { appId, endpoints, accepted, refused } = await flowThrough(s, rx, async () => {
      promoted = await cluster.failOverMaster(owner);
    });
    expect(accepted).toBeGreaterThan(0);
    // The queues' slot moved to the promoted replica (a port failOverMaster found serving it, never
    // the killed one's), which Herald now uses.
    expect(promoted).toBeGreaterThan(0);
    expect(await queueMaster(s)).toBe(promoted);
    console.info(`cluster failover: ${accepted} accepted, ${refused} refused`);
    await expectDatabaseAgreesWithReceiver(s, appId, endpoints, rx, accepted * endpoints.length);
  }, 240_000);
});
