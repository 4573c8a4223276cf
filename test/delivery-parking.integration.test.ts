import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { gateKey } from "@/lib/delivery/endpoint-gate";
import { catalog } from "@/lib/queue/catalog";
import type { RedisClient } from "@/lib/queue/connection";
import { createTenant, type Tenant } from "./helpers/tenant";
import { receiverPool } from "./helpers/receiver";
import { bullPrefix, testRedis } from "./helpers/redis";
import { makeApp, makeEndpoint, publish, waitUntil } from "./helpers/delivery";

// A blocked endpoint's new deliveries cost the worker nothing: published to an endpoint whose
// parked deliveries are not moving (here: it stays at its cap of 10 requests in flight, on the
// shared test server), a message's delivery goes straight behind them, without a queue job, and
// goes out in its turn.

describe("publishing to a blocked endpoint", () => {
  let t: Tenant;
  let redis: RedisClient;
  const receivers = receiverPool();
  const prefix = env().HERALD_REDIS_PREFIX;

  beforeAll(async () => {
    t = await createTenant("delivery-parking");
    redis = testRedis();
  });
  afterAll(async () => {
    await receivers.closeAll();
    redis?.disconnect();
  });

  /**
   * An application whose endpoint holds every request until `release()`: 12 messages published,
   * 10 requests in flight (the cap), the worker parks the other two, and a second later the
   * endpoint counts as blocked (its parked deliveries are not moving). `others` adds endpoints
   * that answer at once.
   */
  async function blockedEndpoint(others = 0) {
    const held: ServerResponse[] = [];
    let holding = true;
    const rx = await receivers.start((_r, res) => void (holding ? held.push(res) : res.writeHead(200).end("ok")));
    const appId = await makeApp(t.api);
    const ep = await makeEndpoint(t.api, appId, { url: rx.url });
    const healthy = [];
    for (let i = 0; i < others; i++) healthy.push(await makeEndpoint(t.api, appId, { url: (await receivers.start()).url }));
    const parkedKey = gateKey(prefix, ep.id, "parked");
    const sent: string[] = [];
    const release = () => {
      holding = false;
      for (const res of held) res.writeHead(200).end("ok");
    };
    try {
      for (let i = 0; i < 12; i++) sent.push(await publish(t.api, appId, { i }));
      await rx.waitFor(10, 8_000);
      await waitUntil("the worker to park two deliveries", () => redis.zcard(parkedKey), (n) => n === 2, 8_000);
      await new Promise((r) => setTimeout(r, 1_200));
    } catch (err) {
      release();
      throw err;
    }
    return { rx, appId, ep, healthy, parkedKey, sent, release };
  }

  it("parks the delivery behind a blocked endpoint's parked ones without a queue job; it is delivered in its turn", async () => {
    const { rx, appId, ep, healthy, parkedKey, sent, release } = await blockedEndpoint(1);
    const events = `${bullPrefix(prefix)}:${catalog.deliver.queue}:events`;
    try {
      // One message for both endpoints: a job for the healthy one's delivery, none for the blocked one's.
      const [lastEvent] = await redis.xrevrange(events, "+", "-", "COUNT", 1);
      const msgId = await publish(t.api, appId, { i: "behind" });
      sent.push(msgId);
      const d = await t.db.delivery.findFirstOrThrow({ where: { messageId: msgId, endpointId: ep.id } });
      const dOther = await t.db.delivery.findFirstOrThrow({ where: { messageId: msgId, endpointId: healthy[0]!.id } });
      const added = (await redis.xrange(events, lastEvent ? `(${lastEvent[0]}` : "-", "+"))
        .filter(([, f]) => f[f.indexOf("event") + 1] === "added")
        .map(([, f]) => f[f.indexOf("jobId") + 1]);
      expect(added).toContain(dOther.id);
      expect(added).not.toContain(d.id);
      // It waits last in line, untried.
      expect(await redis.zrange(parkedKey, 0, -1)).toHaveLength(3);
      expect((await redis.zrange(parkedKey, -1, -1))[0]).toBe(`${d.id}:scheduled`);
      expect(d).toMatchObject({ status: "pending", attemptCount: 0 });
    } finally {
      release();
    }
    // Room again: the parked ones go out, each once.
    await rx.waitFor(13, 8_000);
    const ids = rx.received.map((r) => r.headers["webhook-id"]);
    expect(new Set(ids)).toEqual(new Set(sent));
    expect(ids).toHaveLength(13);
    await waitUntil(
      "every delivery to succeed",
      () => t.db.delivery.count({ where: { endpointId: ep.id, status: "succeeded" } }),
      (n) => n === 13,
      8_000,
    );
  });

  it("loses nothing when Redis loses the parked set: the sweeper sends what the web parked", async () => {
    // A delivery parked at publish has no job: the parked entry is all Redis holds of it, and
    // PostgreSQL the rest. Lost with the parked set (a Redis restart without persistence), it is
    // found by the sweeper like any due delivery missing from Redis.
    const { rx, appId, ep, parkedKey, sent, release } = await blockedEndpoint();
    try {
      sent.push(await publish(t.api, appId, { i: "behind" }));
      expect(await redis.zcard(parkedKey)).toBe(3);
      // Redis loses the endpoint's parked set and its place in the index.
      await redis.del(parkedKey);
      await redis.srem(`${prefix}:gate:parked-endpoints`, ep.id);
    } finally {
      release();
    }
    // The sweeper (every 10 s, for deliveries 10 s overdue) sends the three that Redis forgot.
    await rx.waitFor(13, 45_000);
    const ids = rx.received.map((r) => r.headers["webhook-id"]);
    expect(new Set(ids)).toEqual(new Set(sent));
    expect(ids).toHaveLength(13);
  }, 60_000);
});
