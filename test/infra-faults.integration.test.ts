import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { startStack, type Stack } from "./helpers/stack";
import { startPostgres, startRedis, type PrivatePostgres, type PrivateRedis } from "./helpers/private-servers";
import { receiverPool, type Receiver } from "./helpers/receiver";
import { EVENT_TYPE, makeApp, makeEndpoint, waitUntil } from "./helpers/delivery";

// The infrastructure failing under Herald while messages flow, on a stack with a PostgreSQL and a
// Redis of its own (so restarting them disturbs nobody else): a PostgreSQL restart, every Herald
// connection terminated, a Redis restart that loses every key, PostgreSQL failing over to a
// promoted replica on the same URL, and SIGKILL of one of two workers. After each, every accepted
// message reached the receiver at least once and the database agrees with what the receiver saw;
// no process was restarted by hand. Publishes during the outage get a 503 with Retry-After and
// `{"code","detail"}` (counted), never another 5xx and never a hang.

/** A publish that takes longer than this counts as a hang (the pools give up connecting after 5 s). */
const REQUEST_LIMIT_MS = 12_000;
const SLOW = 240_000;

type Flow = {
  accepted: string[];
  unavailable: number;
  /** Anything but a 202 or a well-formed 503: must stay empty. */
  wrong: string[];
  slowestMs: number;
  stop(): Promise<void>;
};

/** Publishers (`concurrency` loops) that keep publishing until stopped, recording every answer. */
function publishWhile(s: Stack, appId: string, concurrency = 3): Flow {
  const flow: Flow = { accepted: [], unavailable: 0, wrong: [], slowestMs: 0, stop: () => Promise.resolve() };
  let running = true;
  let n = 0;
  const loop = async () => {
    while (running) {
      const t0 = Date.now();
      try {
        const res = await fetch(`${s.baseUrl}/api/v1/app/${appId}/msg`, {
          method: "POST",
          headers: { authorization: `Bearer ${s.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({ eventType: EVENT_TYPE, payload: { n: n++ } }),
          signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
        });
        const text = await res.text();
        flow.slowestMs = Math.max(flow.slowestMs, Date.now() - t0);
        if (res.status === 202) flow.accepted.push((JSON.parse(text) as { id: string }).id);
        else if (res.status === 503) {
          const body = JSON.parse(text) as { code?: string; detail?: string };
          if (body.code === "service_unavailable" && body.detail && Number(res.headers.get("retry-after")) > 0) flow.unavailable++;
          else flow.wrong.push(`503 without Retry-After or code: ${text}`);
          await new Promise((r) => setTimeout(r, 200));
        } else flow.wrong.push(`${res.status} ${text.slice(0, 300)}`);
      } catch (err) {
        flow.wrong.push(`no answer within ${REQUEST_LIMIT_MS} ms (${Date.now() - t0} ms): ${String(err)}`);
      }
      await new Promise((r) => setTimeout(r, 30));
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  flow.stop = async () => {
    running = false;
    await Promise.all(loops);
  };
  return flow;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("faults of PostgreSQL, Redis and workers while messages flow", () => {
  let pgServer: PrivatePostgres;
  let redisServer: PrivateRedis;
  let s: Stack;
  let second: ReturnType<Stack["addWorker"]>;
  const receivers = receiverPool();
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    pgServer = await startPostgres();
    redisServer = await startRedis();
    s = await startStack({
      postgresUrl: pgServer.url,
      redisUrl: redisServer.url,
      workerEnv: {
        HERALD_REQUEST_TIMEOUT_MS: "3000",
        HERALD_CONNECT_TIMEOUT_MS: "1000",
        HERALD_WORKER_STALLED_MS: "3000",
        HERALD_DELIVERY_SWEEP_MS: "1000",
        HERALD_RETRY_SCHEDULE: "1,1,1,1,1,1,1,1",
      },
    });
    s.startWorker();
    second = s.addWorker();
  }, SLOW);
  afterAll(async () => {
    console.log(`infra faults: ${JSON.stringify(figures)}`);
    await s?.close();
    await receivers.closeAll();
    await redisServer?.close();
    await pgServer?.close();
  }, SLOW);

  /** Web and workers still running: nobody restarted anything by hand. */
  function expectProcessesAlive(workers: "both" | "first" = "both") {
    const { web, worker } = s.processes();
    expect(web.exitCode, "web process exited").toBeNull();
    expect(web.signalCode).toBeNull();
    expect(worker?.exitCode, "worker exited").toBeNull();
    if (workers === "both") expect(second.process.exitCode, "second worker exited").toBeNull();
  }

  /**
   * Runs `fault` while publishers run (a few seconds before and after), then checks that every
   * accepted message was delivered and the database agrees with the receiver.
   */
  async function underFault(name: string, fault: () => Promise<void> | void, workers: "both" | "first" = "both") {
    const rx = await receivers.start();
    const appId = await makeApp(s.api);
    await makeEndpoint(s.api, appId, { url: rx.url });
    const flow = publishWhile(s, appId);
    // Messages flowing before the fault (the first publishes of a fresh stack can be slow).
    await waitUntil("publishes to flow", () => Promise.resolve(flow.accepted.length), (n) => n >= 10, 60_000);
    const before = flow.accepted.length;
    const t0 = Date.now();
    await fault();
    const faultMs = Date.now() - t0;
    // Publishing resumes by itself: wait for a good number of accepted publishes after the fault.
    const afterFault = flow.accepted.length;
    await waitUntil("publishes to be accepted again", () => Promise.resolve(flow.accepted.length - afterFault), (n) => n >= 30, 60_000);
    await flow.stop();
    expect(flow.wrong).toEqual([]);
    expect(before).toBeGreaterThan(0);
    await expectDelivered(rx, appId, flow.accepted);
    expectProcessesAlive(workers);
    figures[name] = {
      accepted: flow.accepted.length,
      unavailable503: flow.unavailable,
      slowestPublishMs: flow.slowestMs,
      faultMs,
      received: rx.received.length,
    };
    return flow;
  }

  async function expectDelivered(rx: Receiver, appId: string, accepted: string[]) {
    const receivedIds = () => new Set(rx.received.map((r) => r.headers["webhook-id"]));
    await waitUntil(
      `all ${accepted.length} accepted messages to reach the receiver`,
      () => Promise.resolve(accepted.filter((id) => !receivedIds().has(id)).length),
      (missing) => missing === 0,
      120_000,
    );
    await waitUntil(
      "every delivery of the app to be recorded as succeeded",
      () => s.db.delivery.groupBy({ by: ["status"], where: { applicationId: appId }, _count: true }),
      (groups) => groups.length === 1 && groups[0]!.status === "succeeded",
      60_000,
    );
    // The database and the receiver agree: the same messages, each delivery succeeded, and every
    // attempt recorded as answered 2xx was seen by the receiver.
    const messages = await s.db.message.findMany({ where: { applicationId: appId }, select: { id: true } });
    const inDb = new Set(messages.map((m) => m.id));
    expect([...receivedIds()].filter((id) => !inDb.has(id!))).toEqual([]);
    expect([...inDb].filter((id) => !receivedIds().has(id))).toEqual([]);
    for (const id of accepted) expect(inDb.has(id)).toBe(true);
    const ok = await s.db.attempt.findMany({
      where: { delivery: { applicationId: appId }, responseStatus: { gte: 200, lt: 300 } },
      select: { requestHeaders: true },
    });
    const seen = new Set(rx.received.map((r) => r.headers["webhook-signature"]));
    const unseen = ok.filter((a) => !seen.has((a.requestHeaders as Record<string, string>)["webhook-signature"]));
    expect(unseen.length).toBe(0);
    expect(ok.length).toBeGreaterThanOrEqual(accepted.length);
  }

  it(
    "PostgreSQL restarts (down 3 s): publishes meanwhile get 503 + Retry-After, then everything accepted is delivered",
    async () => {
      const flow = await underFault("postgres restart", () => pgServer.restart("fast", 3_000));
      // Three seconds without a server: publishes meanwhile were told to come back.
      expect(flow.unavailable).toBeGreaterThan(0);
    },
    SLOW,
  );

  it(
    "PostgreSQL terminates every Herald connection (pg_terminate_backend), three times in a row",
    async () => {
      const admin = new pg.Client({ connectionString: pgServer.url });
      await admin.connect();
      try {
        await underFault("pg_terminate_backend", async () => {
          for (let i = 0; i < 3; i++) {
            const { rows } = await admin.query<{ n: number }>(
              `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
               WHERE datname <> 'postgres' AND backend_type = 'client backend'`,
            );
            expect(rows[0]!.n).toBeGreaterThan(0);
            await sleep(700);
          }
        });
      } finally {
        await admin.end();
      }
    },
    SLOW,
  );

  it(
    "Redis restarts without persistence (every key lost): workers resume, the sweeper re-enqueues",
    async () => {
      await underFault("redis restart", () => redisServer.restart(1_000));
    },
    SLOW,
  );

  it(
    "PostgreSQL fails over: the primary crashes, and 2 s later a promoted synchronous replica takes its URL",
    async () => {
      await pgServer.standby();
      let downMs = 0;
      const flow = await underFault("postgres failover", async () => {
        downMs = await pgServer.failover(2_000);
      });
      // Seconds without any server: publishes meanwhile were told to come back.
      expect(flow.unavailable).toBeGreaterThan(0);
      figures["postgres failover downMs"] = downMs;
    },
    SLOW,
  );

  it(
    "SIGKILL of one of two workers mid-flow: the other delivers everything",
    async () => {
      await underFault("worker SIGKILL", () => second.kill(), "first");
    },
    SLOW,
  );
});
