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

// A blocked endpoint's new deliveries cost the worker nothing: published to an endpoint that has
// parked deliveries (here: at its cap of 10 requests in flight, on the shared test server), a
// message's delivery goes straight behind them, without a queue job, and goes out in its turn.

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

  it("parks the delivery behind the endpoint's parked ones without a queue job; it is delivered in its turn", async () => {
    const held: ServerResponse[] = [];
    let holding = true;
    const rx = await receivers.start((_r, res) => void (holding ? held.push(res) : res.writeHead(200).end("ok")));
    const appId = await makeApp(t.api);
    const ep = await makeEndpoint(t.api, appId, { url: rx.url });
    const parkedKey = gateKey(prefix, ep.id, "parked");
    const sent: string[] = [];
    try {
      // 10 requests in flight (the cap), and the worker parks the other two.
      for (let i = 0; i < 12; i++) sent.push(await publish(t.api, appId, { i }));
      await rx.waitFor(10);
      await waitUntil("the worker to park two deliveries", () => redis.zcard(parkedKey), (n) => n === 2);

      const msgId = await publish(t.api, appId, { i: "behind" });
      sent.push(msgId);
      const d = await t.db.delivery.findFirstOrThrow({ where: { messageId: msgId, endpointId: ep.id } });
      // Parked, last in line, and no job was ever added for it (the queue's event stream says
      // which jobs were added; a job would be fetched and parked by the worker within moments).
      expect(await redis.zrange(parkedKey, 0, -1)).toHaveLength(3);
      expect((await redis.zrange(parkedKey, -1, -1))[0]).toBe(`${d.id}:scheduled`);
      const events = await redis.xrevrange(`${bullPrefix(prefix)}:${catalog.deliver.queue}:events`, "+", "-");
      const added = events.filter(([, f]) => f[f.indexOf("event") + 1] === "added").map(([, f]) => f[f.indexOf("jobId") + 1]);
      const before = await t.db.delivery.findFirstOrThrow({ where: { messageId: sent[11], endpointId: ep.id } });
      expect(added).toContain(before.id); // the stream does show the jobs of the deliveries before it
      expect(added).not.toContain(d.id);
      expect(d).toMatchObject({ status: "pending", attemptCount: 0 });
    } finally {
      holding = false;
      for (const res of held) res.writeHead(200).end("ok");
    }
    // Room again: the parked ones go out, each once.
    await rx.waitFor(13);
    const ids = rx.received.map((r) => r.headers["webhook-id"]);
    expect(new Set(ids)).toEqual(new Set(sent));
    expect(ids).toHaveLength(13);
    await waitUntil(
      "every delivery to succeed",
      () => t.db.delivery.count({ where: { endpointId: ep.id, status: "succeeded" } }),
      (n) => n === 13,
    );
  });

});
