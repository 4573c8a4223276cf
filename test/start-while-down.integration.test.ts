import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "./helpers/stack";
import { startPostgres, startRedis, type PrivatePostgres, type PrivateRedis } from "./helpers/private-servers";
import { receiverPool } from "./helpers/receiver";
import { makeApp, makeEndpoint, publish, waitUntil } from "./helpers/delivery";

// Herald started while PostgreSQL or Redis is down (a host rebooting with Herald's units before
// the database's, a compose stack without health-gated ordering): the web process and the worker
// start anyway and stay up, the web process answers its health check and the API with a 503 and
// Retry-After, never a hang, and once the store starts both become ready by themselves; a message
// published then is delivered. Each case has a stack of its own on a private server (a PostgreSQL
// or a Redis of this suite), stopped before the stack's processes start.

const SLOW = 240_000;
/** How long the store stays down after the processes started (longer than their start-up). */
const DOWN_MS = 8_000;
/** An answer slower than this is a hang (health probes give up after 2 s, pool connects after 5 s). */
const ANSWER_LIMIT_MS = 8_000;

const workerEnv = {
  HERALD_DELIVERY_SWEEP_MS: "1000",
  HERALD_CONNECT_TIMEOUT_MS: "1000",
  HERALD_REQUEST_TIMEOUT_MS: "3000",
  // Its "worker started" line says start-up finished.
  LOG_LEVEL: "info",
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("web and worker started while a store is down", () => {
  const receivers = receiverPool();
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    await receivers.closeAll();
  }, SLOW);

  function expectAlive(s: Stack) {
    const { web, worker } = s.processes();
    expect(web.exitCode, "web process exited").toBeNull();
    expect(web.signalCode, "web process killed").toBeNull();
    expect(worker?.exitCode, "worker exited").toBeNull();
    expect(worker?.signalCode, "worker killed").toBeNull();
  }

  /**
   * While the store is down: /health and /health/status answer 503 with Retry-After, in time, and
   * an API call answers (503 with Retry-After when it needs the missing store); nobody exits.
   */
  async function whileDown(s: Stack, down: "database" | "redis") {
    const until = Date.now() + DOWN_MS;
    let checks = 0;
    while (Date.now() < until) {
      const t0 = Date.now();
      const health = await fetch(`${s.baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(ANSWER_LIMIT_MS) });
      expect(health.status).toBe(503);
      expect(Number(health.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await health.json()).toEqual({ code: "unhealthy", detail: expect.stringContaining(`Not reachable: ${down}`) });
      const status = await fetch(`${s.baseUrl}/api/v1/health/status`, { signal: AbortSignal.timeout(ANSWER_LIMIT_MS) });
      expect(status.status).toBe(503);
      expect(Number(status.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await status.json()).toMatchObject({ status: "degraded", [down]: "error" });
      const api = await fetch(`${s.baseUrl}/api/v1/app`, {
        headers: { authorization: `Bearer ${s.apiKey}` },
        signal: AbortSignal.timeout(ANSWER_LIMIT_MS),
      });
      const body = (await api.json()) as { code?: string };
      if (down === "database") {
        expect(api.status).toBe(503);
        expect(body.code).toBe("service_unavailable");
        expect(Number(api.headers.get("retry-after"))).toBeGreaterThan(0);
      } else expect([200, 503]).toContain(api.status);
      expect(Date.now() - t0).toBeLessThan(ANSWER_LIMIT_MS);
      checks++;
      expectAlive(s);
      await sleep(500);
    }
    expect(checks).toBeGreaterThan(1);
    // The worker got through its whole start-up without the store (not merely: not dead yet).
    await waitUntil("the worker to log its start", () => Promise.resolve(s.logs()), (logs) => logs.includes('"worker started"'), 30_000);
    expectAlive(s);
  }

  /** The store is back: health turns 204 by itself, and a message published now is delivered. */
  async function recovers(s: Stack) {
    await waitUntil(
      "/api/v1/health to answer 204",
      async () => (await fetch(`${s.baseUrl}/api/v1/health`).catch(() => null))?.status ?? 0,
      (status) => status === 204,
      60_000,
    );
    const rx = await receivers.start();
    const appId = await makeApp(s.api);
    await makeEndpoint(s.api, appId, { url: rx.url });
    const id = await publish(s.api, appId, { after: "the store started" });
    await rx.waitFor(1, 60_000);
    expect(rx.received[0]!.headers["webhook-id"]).toBe(id);
    expectAlive(s);
  }

  // Both stacks start side by side (each migrates a database of its own), and both cases run at
  // once: they share nothing.
  let pgServer: PrivatePostgres;
  let redisServer: PrivateRedis;
  let withoutPg: Stack;
  let withoutRedis: Stack;
  beforeAll(async () => {
    [pgServer, redisServer] = await Promise.all([startPostgres(), startRedis()]);
    cleanups.push(() => pgServer.close(), () => redisServer.close());
    await Promise.all([
      startStack({ postgresUrl: pgServer.url, workerEnv, captureLogs: true, beforeStart: () => pgServer.stop("fast") }).then((s) => {
        withoutPg = s;
        cleanups.push(() => s.close());
        s.startWorker();
      }),
      startStack({ redisUrl: redisServer.url, workerEnv, captureLogs: true, beforeStart: () => redisServer.stop() }).then((s) => {
        withoutRedis = s;
        cleanups.push(() => s.close());
        s.startWorker();
      }),
    ]);
  }, SLOW);

  describe.concurrent("cases", () => {
    it(
      "PostgreSQL down: web and worker stay up answering 503 + Retry-After, then become ready and deliver once it starts",
      async () => {
        await whileDown(withoutPg, "database");
        await pgServer.start();
        await recovers(withoutPg);
      },
      SLOW,
    );

    it(
      "Redis down: web and worker stay up answering 503 + Retry-After, then become ready and deliver once it starts",
      async () => {
        await whileDown(withoutRedis, "redis");
        await redisServer.start();
        await recovers(withoutRedis);
      },
      SLOW,
    );
  });
});
