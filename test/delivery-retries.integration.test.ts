import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { Svix } from "svix";
import { Queue } from "bullmq";
import { catalog } from "@/lib/queue/catalog";
import { gateKey } from "@/lib/delivery/endpoint-gate";
import { startStack, type Stack } from "./helpers/stack";
import { bullPrefix, testRedis } from "./helpers/redis";
import { receiverPool, startReceiver, startUnacceptingListener, type Received, type Receiver } from "./helpers/receiver";
import { freePort } from "../scripts/lib/isolated-run.mjs";
import { answers, makeApp, makeEndpoint, publish, signatureHeaders, waitUntil } from "./helpers/delivery";

// Retries, limits and operational webhooks on a private stack whose worker runs a short schedule
// (HERALD_RETRY_SCHEDULE=1,1,1,1,1: six attempts a second apart), a 1.5 s acknowledgement timeout,
// a 1 s circuit cool-down, and few worker slots (20) against a per-endpoint cap of 4, so that a
// slow endpoint holding worker slots would visibly starve the others.

const CAP = 4;
const TIMEOUT_MS = 1500;
const CONNECT_TIMEOUT_MS = 1000;

describe("retries, limits and operational webhooks", () => {
  let s: Stack;
  let metricsPort: number;
  let op: Receiver;
  let opSecret: string;
  const receivers = receiverPool();
  const receiver = receivers.start;

  beforeAll(async () => {
    metricsPort = await freePort();
    s = await startStack({
      workerEnv: {
        HERALD_RETRY_SCHEDULE: "1,1,1,1,1",
        HERALD_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
        HERALD_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
        HERALD_CIRCUIT_COOLDOWN_MS: "1000",
        HERALD_WORKER_CONCURRENCY: "20",
        HERALD_ENDPOINT_CONCURRENCY: String(CAP),
        HERALD_DELIVERY_SWEEP_MS: "1000",
        HERALD_WORKER_METRICS_PORT: String(metricsPort),
      },
    });
    s.startWorker();
    op = await startReceiver();
    const created = await s.api("POST", "/operational-webhook/endpoint", { url: op.url, description: "ops" });
    expect(created.status).toBe(201);
    opSecret = (await s.api("GET", `/operational-webhook/endpoint/${created.body.id}/secret`)).body.key;
  });
  afterAll(async () => {
    await s?.close();
    await op?.close();
    await receivers.closeAll();
  });

  const delivery = (msgId: string, endpointId: string) =>
    s.db.delivery.findFirstOrThrow({ where: { messageId: msgId, endpointId } });
  const attempts = (msgId: string, endpointId: string) =>
    s.db.attempt.findMany({ where: { messageId: msgId, endpointId }, orderBy: { id: "asc" } });
  /** Operational events received, verified with the operational endpoint's secret. */
  const opEvents = (filter: (e: { type: string; data: Record<string, unknown> }) => boolean) =>
    op.received
      .map(
        (r: Received) =>
          new StandardWebhook(opSecret).verify(r.body, signatureHeaders(r)) as {
            type: string;
            data: Record<string, unknown>;
          },
      )
      .filter(filter);

  it("retries on HERALD_RETRY_SCHEDULE with the same webhook-id until the endpoint answers 2xx", async () => {
    const appId = await makeApp(s.api);
    const rx = await receiver(answers(500, 503, 200));
    const ep = await makeEndpoint(s.api, appId, { url: rx.url });
    const msgId = await publish(s.api, appId, { retry: true });
    const d = await waitUntil(
      "success",
      () => delivery(msgId, ep.id),
      (x) => x.status === "succeeded",
    );
    expect(d.attemptCount).toBe(3);
    expect((await attempts(msgId, ep.id)).map((a) => [a.responseStatus, a.triggerType])).toEqual([
      [500, "scheduled"],
      [503, "scheduled"],
      [200, "scheduled"],
    ]);
    expect(rx.received.map((r) => r.headers["webhook-id"])).toEqual([msgId, msgId, msgId]);
    const stamps = rx.received.map((r) => Number(r.headers["webhook-timestamp"]));
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    for (const r of rx.received)
      expect(new StandardWebhook(ep.secret).verify(r.body, signatureHeaders(r))).toBeTruthy();
  });

  it("dead-letters after the last scheduled attempt; failing and exhausted, then recovered on a manual resend", async () => {
    const appId = await makeApp(s.api);
    let status = 500;
    const rx = await receiver((_r, res) => void res.writeHead(status).end());
    const ep = await makeEndpoint(s.api, appId, { url: rx.url });
    const msgId = await publish(s.api, appId, { exhaust: true });
    const d = await waitUntil(
      "the dead letter",
      () => delivery(msgId, ep.id),
      (x) => x.status === "failed",
      30_000,
    );
    expect(d).toMatchObject({ deadReason: "exhausted", attemptCount: 6, nextAttemptAt: null });
    expect(rx.received).toHaveLength(6);

    const mine = (e: { data: Record<string, unknown> }) => e.data.msgId === msgId;
    const events = await waitUntil(
      "failing and exhausted operational events",
      () => Promise.resolve(opEvents(mine)),
      (x) => x.some((e) => e.type === "message.attempt.exhausted"),
    );
    expect(events.map((e) => e.type).sort()).toEqual(["message.attempt.exhausted", "message.attempt.failing"]);
    const attemptIds = (await attempts(msgId, ep.id)).map((a) => a.id);
    const failing = events.find((e) => e.type === "message.attempt.failing")!;
    expect(failing.data).toMatchObject({
      appId,
      endpointId: ep.id,
      msgId,
      lastAttempt: { id: attemptIds[3], responseStatusCode: 500 },
    });
    expect(events.find((e) => e.type === "message.attempt.exhausted")!.data).toMatchObject({
      lastAttempt: { id: attemptIds[5], responseStatusCode: 500, timestamp: expect.any(String) },
    });

    status = 200;
    expect((await s.api("POST", `/app/${appId}/msg/${msgId}/endpoint/${ep.id}/resend`)).status).toBe(202);
    await waitUntil(
      "the resend",
      () => delivery(msgId, ep.id),
      (x) => x.status === "succeeded",
    );
    const recovered = await waitUntil(
      "message.attempt.recovered",
      () => Promise.resolve(opEvents((e) => mine(e) && e.type === "message.attempt.recovered")),
      (x) => x.length === 1,
    );
    expect(recovered[0]!.data).toMatchObject({ msgId, endpointId: ep.id, lastAttempt: { responseStatusCode: 200 } });
    const last = (await attempts(msgId, ep.id)).at(-1)!;
    expect(last).toMatchObject({ triggerType: "manual", status: "success" });
  });

  it("sends message.attempt.failing after four failed attempts also when a worker died during the 4th", async () => {
    const appId = await makeApp(s.api);
    const rx = await receiver(answers(500));
    // Two quick retries, then a minute: the 4th attempt is one we can stage a worker's death in.
    const ep = await makeEndpoint(s.api, appId, { url: rx.url, retrySchedule: [1, 1, 60, 60, 60] });
    const msgId = await publish(s.api, appId, { interrupted: true });
    const d = await waitUntil(
      "three failed attempts",
      () => delivery(msgId, ep.id),
      (x) => x.attemptCount === 3 && x.status === "pending",
    );
    const connection = testRedis();
    const deliveries = new Queue(catalog.deliver.queue, { connection, prefix: bullPrefix(s.prefix) });
    try {
      await waitUntil(
        "the 4th attempt's timer",
        () => deliveries.getJobState(d.id),
        (state) => state === "delayed",
      );
      // What a worker that claimed the 4th attempt and was killed leaves: the delivery "sending"
      // under a lease that has run out, and no job.
      await deliveries.remove(d.id);
      await s.db.delivery.update({
        where: { id: d.id },
        data: { status: "sending", nextAttemptAt: new Date(Date.now() - 1_000) },
      });
    } finally {
      await deliveries.close();
      connection.disconnect();
    }

    // The sweeper brings it back: the claim records the 4th as interrupted and makes the 5th.
    const all = await waitUntil(
      "the attempt after the interrupted one",
      () => attempts(msgId, ep.id),
      (x) => x.length === 5,
    );
    expect(all.map((a) => a.errorClass ?? a.responseStatus)).toEqual([500, 500, 500, "interrupted", 500]);
    const failing = await waitUntil(
      "message.attempt.failing",
      () => Promise.resolve(opEvents((e) => e.type === "message.attempt.failing" && e.data.msgId === msgId)),
      (x) => x.length > 0,
    );
    // The 4th failed attempt with an answer is the 5th attempt; the event is sent once.
    expect(failing).toHaveLength(1);
    expect(failing[0]!.data).toMatchObject({ endpointId: ep.id, lastAttempt: { id: all[4]!.id, responseStatusCode: 500 } });
  });

  it("never retries a 429 or 503 before its Retry-After (seconds or HTTP date), and each attempt says what it honoured", async () => {
    const appId = await makeApp(s.api);
    // The HTTP date is read when the 503 goes out, a few seconds from then (whole seconds).
    let dateSent = "";
    const rx = await receiver((req, res) => {
      const n = rx.received.length;
      if (n === 1) return void res.writeHead(429, { "retry-after": "2" }).end();
      if (n === 2) {
        dateSent = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3000).toUTCString();
        return void res.writeHead(503, { "retry-after": dateSent }).end();
      }
      if (n === 3) return void res.writeHead(429, { "retry-after": "0" }).end();
      res.writeHead(200).end("ok");
    });
    // An endpoint-level schedule (1 s steps, 0.8-1.2 s with jitter) overrides HERALD_RETRY_SCHEDULE.
    const ep = await makeEndpoint(s.api, appId, { url: rx.url, retrySchedule: [1, 1, 1, 1] });
    const msgId = await publish(s.api, appId, { retryAfter: true });
    await waitUntil(
      "success",
      () => delivery(msgId, ep.id),
      (x) => x.status === "succeeded",
      20_000,
    );
    expect(rx.received).toHaveLength(4);
    const at = rx.received.map((r) => r.at);
    // Retry-After: 2 against a 1 s step: the receiver sees the next request 2 s or more later.
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(2_000);
    // The HTTP date: not before it.
    expect(at[2]!).toBeGreaterThanOrEqual(Date.parse(dateSent));
    // Retry-After: 0 does not shorten the schedule's step.
    expect(at[3]! - at[2]!).toBeGreaterThanOrEqual(800);

    // The attempts (Herald's retryAfterMs) record what each next attempt waited for.
    const listed = await s.api("GET", `/app/${appId}/attempt/msg/${msgId}`);
    expect(listed.status).toBe(200);
    const out = [...(listed.body.data as { retryAfterMs: number | null; responseStatusCode: number }[])].reverse();
    expect(out.map((o) => o.responseStatusCode)).toEqual([429, 503, 429, 200]);
    expect(out[0]!.retryAfterMs).toBe(2_000);
    expect(out[1]!.retryAfterMs).toBeGreaterThan(1_000);
    expect(out[1]!.retryAfterMs).toBeLessThanOrEqual(4_000);
    expect(out[2]!.retryAfterMs).toBe(0);
    expect(out[3]!.retryAfterMs).toBeNull();
    // Each attempt stores the answer's headers as they came.
    const stored = (await attempts(msgId, ep.id)).map((a) => (a.responseHeaders as Record<string, string>)["retry-after"]);
    expect(stored).toEqual(["2", dateSent, "0", undefined]);
  });

  it("honours a Retry-After far beyond the scheduled step without clamping it, up to 24 h", async () => {
    const appId = await makeApp(s.api);
    const rx = await receiver(answers([429, { "retry-after": "60" }]));
    const far = await receiver(answers([503, { "retry-after": String(3 * 24 * 3600) }]));
    const ep = await makeEndpoint(s.api, appId, { url: rx.url, retrySchedule: [2, 2] });
    const farEp = await makeEndpoint(s.api, appId, { url: far.url, retrySchedule: [2, 2] });
    const msgId = await publish(s.api, appId, { retryAfter: "long" });
    const delayOf = async (endpointId: string) => {
      const d = await waitUntil(
        "the first attempt to be recorded",
        () => delivery(msgId, endpointId),
        (x) => x.attemptCount === 1 && x.status === "pending",
      );
      return d.nextAttemptAt!.getTime() - d.lastAttemptAt!.getTime();
    };
    // 60 s against a 2 s step: 60 s (plus at most 20% jitter), where it used to be clamped to 4 s.
    const delay = await delayOf(ep.id);
    expect(delay).toBeGreaterThanOrEqual(60_000);
    expect(delay).toBeLessThanOrEqual(72_000 + 1_000);
    // Three days: a day.
    const farDelay = await delayOf(farEp.id);
    expect(farDelay).toBeGreaterThanOrEqual(24 * 3600_000 - 1_000);
    expect(farDelay).toBeLessThanOrEqual(24 * 3600_000 + 1_000);
    const honoured = async (endpointId: string) =>
      (await s.db.attempt.findFirstOrThrow({ where: { messageId: msgId, endpointId } })).retryAfterMs;
    expect(await honoured(ep.id)).toBe(60_000);
    expect(await honoured(farEp.id)).toBe(24 * 3600_000);
  });

  it("gives up on an answer slower than the acknowledgement timeout and retries", async () => {
    const appId = await makeApp(s.api);
    const rx = await receiver(() => undefined); // never answers
    const ep = await makeEndpoint(s.api, appId, { url: rx.url });
    const msgId = await publish(s.api, appId, { slow: true });
    const [a] = await waitUntil(
      "a timed-out attempt",
      () => attempts(msgId, ep.id),
      (x) => x.length >= 1,
    );
    expect(a).toMatchObject({ status: "fail", responseStatus: 0, errorClass: "timeout" });
    expect(a!.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    // Retried on the schedule, with the same webhook-id.
    await rx.waitFor(2);
    expect(rx.received.slice(0, 2).map((r) => r.headers["webhook-id"])).toEqual([msgId, msgId]);
    const [, b] = await waitUntil(
      "the second timed-out attempt",
      () => attempts(msgId, ep.id),
      (x) => x.length >= 2,
    );
    expect(b).toMatchObject({ status: "fail", errorClass: "timeout" });
  });

  it("gives up on a connection that never opens after the connect timeout (connect_timeout), and retries", async () => {
    const appId = await makeApp(s.api);
    const unaccepting = await startUnacceptingListener();
    try {
      const ep = await makeEndpoint(s.api, appId, { url: unaccepting.url });
      const msgId = await publish(s.api, appId, { neverConnects: true });
      const all = await waitUntil(
        "two attempts",
        () => attempts(msgId, ep.id),
        (x) => x.length >= 2,
      );
      for (const a of all.slice(0, 2)) {
        expect(a).toMatchObject({ status: "fail", responseStatus: 0, errorClass: "connect_timeout" });
        // The connect timeout (1 s here) ended it, not the acknowledgement timeout.
        expect(a.durationMs).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 50);
        expect(a.durationMs).toBeLessThan(TIMEOUT_MS);
      }
      expect((await delivery(msgId, ep.id)).status).not.toBe("failed");
    } finally {
      unaccepting.close();
    }
  });

  it("isolates endpoints: a stuck endpoint holds at most its cap of requests and never the worker's slots", async () => {
    const appSlow = await makeApp(s.api);
    const appFast = await makeApp(s.api);
    const slow = await receiver(() => undefined); // accepts, never answers
    const fast = await receiver();
    const slowEp = await makeEndpoint(s.api, appSlow, { url: slow.url });
    await makeEndpoint(s.api, appFast, { url: fast.url });
    // The stuck endpoint's messages go first, and outnumber the worker's 20 slots three times.
    for (let i = 0; i < 60; i++) await publish(s.api, appSlow, { slow: i });
    for (let i = 0; i < 30; i++) await publish(s.api, appFast, { fast: i });
    await fast.waitFor(30, 60_000);
    // All 30 fast messages arrived while most of the stuck endpoint's were not even tried once.
    const untried = await s.db.delivery.count({ where: { endpointId: slowEp.id, attemptCount: 0 } });
    expect(untried).toBeGreaterThan(20);
    // Never more than CAP requests at once: each holds its slot until it times out, so no CAP+1
    // requests can have started within one timeout of each other.
    const at = slow.received.map((r) => r.at).sort((a, b) => a - b);
    for (let i = 0; i + CAP < at.length; i++) expect(at[i + CAP]! - at[i]!).toBeGreaterThanOrEqual(TIMEOUT_MS - 300);
  });

  it("keeps a busy endpoint at its cap across two workers while slots pass from request to request, and gives them all back", async () => {
    const appId = await makeApp(s.api);
    let open = 0;
    let most = 0;
    const rx = await receiver((_r, res) => {
      most = Math.max(most, ++open);
      setTimeout(() => {
        open--;
        res.writeHead(200).end();
      }, 20);
    });
    const ep = await makeEndpoint(s.api, appId, { url: rx.url });
    const slots = testRedis();
    const deliveries = new Queue(catalog.deliver.queue, { connection: slots, prefix: bullPrefix(s.prefix) });
    const before = await deliveries.getWorkersCount();
    const second = s.addWorker();
    try {
      // Let the second worker come up, so both take jobs from the start.
      await waitUntil(
        "the second worker to connect",
        () => deliveries.getWorkersCount(),
        (n) => n > before,
        30_000,
      );
      for (let round = 0; round < 3; round++)
        await Promise.all(Array.from({ length: 100 }, (_, i) => publish(s.api, appId, { busy: i, round })));
      await rx.waitFor(300, 60_000);
      // The receiver counts a request open until it answers: it never sees more than the workers have in flight.
      expect(most).toBe(CAP);
      expect(new Set(rx.received.map((r) => r.headers["webhook-id"])).size).toBe(300);
      await waitUntil(
        "every in-flight slot to be given back",
        () => slots.zcard(gateKey(s.prefix, ep.id, "inflight")),
        (n) => n === 0,
      );
    } finally {
      await second.stop();
      await deliveries.close();
      slots.disconnect();
    }
    // A second worker process starts inside the test (up to 30 s on a loaded machine), then 300 deliveries.
  }, 120_000);

  it("opens the circuit after repeated failures, then a single probe closes it and the waiting deliveries flow", async () => {
    const appId = await makeApp(s.api);
    const PROBE_HOLD_MS = 800;
    let recovered = false;
    let probeAt: number | null = null;
    const rx = await receiver((r, res) => {
      if (!recovered) return void res.writeHead(500).end();
      // The first request after the endpoint recovered is the probe: it answers slowly, so any
      // second request while the circuit is half-open would arrive during the hold.
      if (probeAt === null) {
        probeAt = r.at;
        return void setTimeout(() => res.writeHead(200).end(), PROBE_HOLD_MS);
      }
      res.writeHead(200).end();
    });
    const ep = await makeEndpoint(s.api, appId, { url: rx.url });
    const msgIds: string[] = [];
    for (let i = 0; i < 12; i++) msgIds.push(await publish(s.api, appId, { circuit: i }));
    const opened = await waitUntil(
      "the circuit to open",
      () => s.api("GET", `/app/${appId}/endpoint/${ep.id}`),
      (r) => r.body.circuitState === "open" || r.body.circuitState === "half_open",
    );
    // The API says since when, and when the next probe goes (after the cool-down).
    const openedAt = Date.parse(opened.body.circuitOpenedAt as string);
    expect(openedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(opened.body.circuitNextProbeAt as string)).toBeGreaterThan(openedAt);
    // Let the requests that were already under way when it opened arrive (they fail fast).
    await waitUntil(
      "no request for 300 ms",
      async () => {
        const before = rx.received.length;
        await new Promise((r) => setTimeout(r, 300));
        return rx.received.length === before;
      },
      (quiet) => quiet,
    );
    recovered = true;
    await waitUntil(
      "every message to be delivered",
      () => s.db.delivery.count({ where: { endpointId: ep.id, status: "succeeded" } }),
      (n) => n === 12,
      30_000,
    );
    const closed = (await s.api("GET", `/app/${appId}/endpoint/${ep.id}`)).body;
    expect(closed).toMatchObject({ circuitState: "closed", circuitOpenedAt: null, circuitNextProbeAt: null });
    const received = new Set(rx.received.map((r) => r.headers["webhook-id"]));
    expect(received).toEqual(new Set(msgIds));
    // Nothing else was sent while the probe was out.
    const afterProbe = rx.received.filter((r) => r.at > probeAt!).map((r) => r.at);
    expect(afterProbe.length).toBeGreaterThan(0);
    expect(Math.min(...afterProbe) - probeAt!).toBeGreaterThanOrEqual(PROBE_HOLD_MS - 50);
  });

  it("enforces the endpoint's throttle rate (messages per second)", async () => {
    const appId = await makeApp(s.api);
    const rx = await receiver();
    await makeEndpoint(s.api, appId, { url: rx.url, throttleRate: 4 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => publish(s.api, appId, { throttled: i })));
    await rx.waitFor(12, 30_000);
    const at = rx.received.map((r) => r.at).sort((a, b) => a - b);
    // 4 per second, evenly spaced: 12 messages span at least 11 intervals of 250 ms...
    expect(at[11]! - at[0]!).toBeGreaterThanOrEqual(11 * 250 - 150);
    // ...and no second ever holds more than 4 (plus one at its edge).
    for (let i = 0; i + 5 < at.length; i++) expect(at[i + 5]! - at[i]!).toBeGreaterThanOrEqual(1000 - 150);
  });

  it("disables an endpoint that has not succeeded for 5 days (endpoint.disabled), and endpoint.enabled when it is back", async () => {
    const appId = await makeApp(s.api);
    const rx = await receiver(answers(500));
    const ep = await makeEndpoint(s.api, appId, { url: rx.url });
    await s.db.endpoint.update({
      where: { id: ep.id },
      data: { failingSince: new Date(Date.now() - 6 * 86_400_000), consecutiveFailures: 50 },
    });
    await publish(s.api, appId, { failing: true });
    const disabled = await waitUntil(
      "auto-disable",
      () => s.api("GET", `/app/${appId}/endpoint/${ep.id}`),
      (r) => r.body.state === "disabled",
    );
    expect(disabled.body.disabledReason).toMatch(/failing/);
    const [ev] = await waitUntil(
      "endpoint.disabled",
      () => Promise.resolve(opEvents((e) => e.type === "endpoint.disabled" && e.data.endpointId === ep.id)),
      (x) => x.length === 1,
    );
    expect(ev!.data).toMatchObject({ appId, endpointId: ep.id, failSince: expect.any(String) });
    expect((await s.api("PATCH", `/app/${appId}/endpoint/${ep.id}`, { disabled: false })).status).toBe(200);
    await waitUntil(
      "endpoint.enabled",
      () => Promise.resolve(opEvents((e) => e.type === "endpoint.enabled" && e.data.endpointId === ep.id)),
      (x) => x.length === 1,
    );
  });

  it("keeps an endpoint enabled that failed too few times, or for less than 5 days", async () => {
    const appId = await makeApp(s.api);
    const rx = await receiver(answers(500));
    const fewFailures = await makeEndpoint(s.api, appId, { url: rx.url });
    const notLongEnough = await makeEndpoint(s.api, appId, { url: rx.url });
    await s.db.endpoint.update({
      where: { id: fewFailures.id },
      // Six more failed attempts make 9: one short of HERALD_AUTO_DISABLE_MIN_FAILURES (10).
      data: { failingSince: new Date(Date.now() - 6 * 86_400_000), consecutiveFailures: 3 },
    });
    await s.db.endpoint.update({
      where: { id: notLongEnough.id },
      data: { failingSince: new Date(Date.now() - 4 * 86_400_000), consecutiveFailures: 50 },
    });
    const msgId = await publish(s.api, appId, { nearlyDisabled: true });
    await waitUntil(
      "every attempt of the endpoint that failed too few times",
      () => delivery(msgId, fewFailures.id),
      (d) => d.status === "failed",
      30_000,
    );
    expect((await attempts(msgId, notLongEnough.id)).length).toBeGreaterThanOrEqual(1);
    for (const ep of [fewFailures, notLongEnough]) {
      const { body } = await s.api("GET", `/app/${appId}/endpoint/${ep.id}`);
      expect(body).toMatchObject({ state: "active", disabled: false });
    }
    expect((await s.db.endpoint.findUniqueOrThrow({ where: { id: fewFailures.id } })).consecutiveFailures).toBe(9);
    expect(opEvents((e) => e.type === "endpoint.disabled" && [fewFailures.id, notLongEnough.id].includes(e.data.endpointId as string))).toEqual([]);
  });

  it("manages operational endpoints through the Svix SDK, hidden from the application API", async () => {
    const svix = new Svix(s.apiKey, { serverUrl: s.baseUrl });
    const created = await svix.operationalWebhookEndpoint.create({
      url: "http://127.0.0.1:9/ops",
      filterTypes: ["endpoint.disabled"],
      uid: "ops-2",
    });
    expect(created).toMatchObject({ uid: "ops-2", filterTypes: ["endpoint.disabled"], disabled: false });
    expect((await svix.operationalWebhookEndpoint.get("ops-2")).id).toBe(created.id);
    const updated = await svix.operationalWebhookEndpoint.update(created.id, {
      url: "http://127.0.0.1:9/ops2",
      disabled: true,
    });
    expect(updated).toMatchObject({ url: "http://127.0.0.1:9/ops2", disabled: true, filterTypes: null });
    expect((await svix.operationalWebhookEndpoint.getSecret(created.id)).key).toMatch(/^whsec_/);
    await svix.operationalWebhookEndpoint.rotateSecret(created.id, {});
    const list = await svix.operationalWebhookEndpoint.list();
    expect(list.data.map((e) => e.id)).toContain(created.id);
    const bad = await s.api("POST", "/operational-webhook/endpoint", {
      url: "http://127.0.0.1:9/x",
      filterTypes: ["order.paid"],
    });
    expect(bad.status).toBe(422);
    // The internal application never shows in the application API.
    const apps = await s.api("GET", "/app?limit=250");
    expect(apps.body.data.every((a: { name: string }) => a.name !== "Operational webhooks")).toBe(true);
    await svix.operationalWebhookEndpoint.delete(created.id);
    expect((await s.api("GET", `/operational-webhook/endpoint/${created.id}`)).status).toBe(404);
  });

  it("serves the worker's Prometheus metrics on its own port", async () => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(text).toMatch(/herald_deliveries_total\{outcome="succeeded"\} [1-9]/);
    expect(text).toMatch(/herald_delivery_attempts_total\{result="fail",error_class="timeout"\} [1-9]/);
    expect(text).toContain("herald_delivery_attempt_duration_seconds_bucket");
    expect(text).toContain("herald_delivery_in_flight");
    expect(text).toContain(`herald_queue_jobs{queue="deliveries",state="waiting"}`);
    // The stuck endpoint of the isolation test: its circuit is open and its deliveries are parked.
    expect(text).toMatch(/herald_endpoints\{state="active",circuit="(open|half_open)"\} [1-9]/);
    expect(text).toMatch(/herald_deliveries_parked [1-9]/);
  });
});
