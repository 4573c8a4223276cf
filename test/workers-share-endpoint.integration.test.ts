import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gateKey } from "@/lib/delivery/endpoint-gate";
import { startStack, type Stack } from "./helpers/stack";
import { testRedis } from "./helpers/redis";
import { receiverPool, type Received } from "./helpers/receiver";
import { makeApp, makeEndpoint, publish } from "./helpers/delivery";
import { expectDatabaseAgreesWithReceiver } from "./helpers/agreement";

// Several worker processes share each endpoint's in-flight cap and throttle exactly: both live in
// Redis (lib/delivery/endpoint-gate.ts), so two workers together never send an endpoint more
// than its cap at once, nor faster than its rate. npm test runs this file on the standalone
// Redis and again on a Redis Cluster and on Sentinel.

const CAP = 3;

describe("two worker processes share an endpoint", () => {
  let s: Stack;
  const receivers = receiverPool();
  const second: { stop(): Promise<void> }[] = [];

  beforeAll(async () => {
    s = await startStack({ workerEnv: { HERALD_ENDPOINT_CONCURRENCY: String(CAP), HERALD_DELIVERY_SWEEP_MS: "1000" } });
    s.startWorker();
    second.push(s.addWorker());
  }, 180_000);
  afterAll(async () => {
    for (const w of second) await w.stop();
    await s?.close();
    await receivers.closeAll();
  });

  it(`a busy endpoint with a cap of ${CAP} never sees more than ${CAP} requests at once, and both workers send`, async () => {
    let active = 0;
    let most = 0;
    const rx = await receivers.start((_r: Received, res: ServerResponse) => {
      active++;
      most = Math.max(most, active);
      setTimeout(() => {
        active--;
        res.writeHead(200).end("ok");
      }, 150);
    });
    const appId = await makeApp(s.api);
    const ep = await makeEndpoint(s.api, appId, { url: `${rx.url}/0` });

    // Which processes hold the endpoint's slots: each worker's lease ids carry a tag of its own.
    const redis = testRedis(s.redisEnv);
    const holders = new Set<string>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const m of await redis.zrange(gateKey(s.prefix, ep.id, "inflight"), 0, -1))
          if (m.startsWith("lease:")) holders.add(m.split(":")[1]!);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();

    const count = 60;
    await Promise.all(Array.from({ length: count }, (_, i) => publish(s.api, appId, { busy: i })));
    await expectDatabaseAgreesWithReceiver(s, appId, [ep.id], rx, count, 60_000);
    sampling = false;
    await sampler;
    redis.disconnect();

    expect(most).toBe(CAP); // busy: at the cap, never above it
    expect(holders.size).toBe(2); // both worker processes held slots of the endpoint
    expect(rx.received).toHaveLength(count); // each message sent once
  }, 90_000);

  it("a throttled endpoint (rateLimit 20/s) gets no more than its rate from both workers together", async () => {
    const rx = await receivers.start();
    const appId = await makeApp(s.api);
    const ep = await makeEndpoint(s.api, appId, { url: `${rx.url}/0`, rateLimit: 20 });
    const count = 40;
    await Promise.all(Array.from({ length: count }, (_, i) => publish(s.api, appId, { throttled: i })));
    await expectDatabaseAgreesWithReceiver(s, appId, [ep.id], rx, count, 60_000);
    const at = rx.received.map((r) => r.at).sort((a, b) => a - b);
    // 20 per second, evenly spaced: 40 sends span at least 39 intervals of 50 ms (the receiver sees
    // them after the network and two event loops, hence the slack)...
    expect(at[count - 1]! - at[0]!).toBeGreaterThanOrEqual(39 * 50 - 150);
    // ...and no second ever holds more than 20 (plus one at its edge).
    for (let i = 0; i + 21 < at.length; i++) expect(at[i + 21]! - at[i]!).toBeGreaterThanOrEqual(1000 - 150);
  }, 90_000);
});
