import { DelayedError, Job, type Queue } from "bullmq";
import type { Redis } from "ioredis";
import { db } from "../db";
import { newId } from "../ids";
import { logger } from "../logger";
import { parseJob } from "../queue/catalog";
import { secretBox } from "../services";
import type { AddressPolicy } from "../ssrf/ip-policy";
import { openHeaders } from "../endpoints/manage-endpoints";
import type { DeliveryMetrics } from "../metrics/delivery-metrics";
import { createBatcher } from "./batcher";
import { buildBody, buildHeaders } from "./build-request";
import { circuitGate } from "./circuit-breaker";
import { claimDeliveries, unclaimDeliveries, type ClaimedDelivery, type ClaimRequest } from "./claim-deliveries";
import { classify } from "./classify-response";
import { decideNext } from "./decide-next";
import { createEndpointGate, type Admission } from "./endpoint-gate";
import { createWebhookClient } from "./http-client";
import { afterAttempt } from "./after-attempt";
import { recordAttempts } from "./record-attempts";

// One delivery job, end to end: claim (compare-and-set) -> circuit / in-flight cap / throttle
// -> sign and POST -> record the attempt with the delivery's next state -> side effects
// (retry timer, endpoint health, operational webhooks, waking parked jobs). Database work of
// concurrent jobs is batched; a job never waits for another endpoint.

/** A parked job wakes up by itself after this long if nobody promotes it earlier. */
export const PARK_TIMEOUT_MS = 5 * 60_000;
/** A claim's lease outlives the longest possible attempt by this much. */
export const LEASE_MARGIN_MS = 10_000;

/** How long a job may wait inside this process for a slot of an endpoint at its cap before parking. */
export const LOCAL_WAIT_MS = 250;

const BATCH = { maxBatch: 100, maxConcurrent: 4 };
const PROMOTE_TRIES = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

export type EngineConfig = {
  endpointConcurrency: number;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  /** HERALD_RETRY_SCHEDULE: the platform default; endpoint/environment overrides win. */
  retrySchedule: number[] | undefined;
  circuitCooldownMs: number;
  autoDisableAfterMs: number;
  autoDisableMinFailures: number;
  policy: AddressPolicy;
  prefix: string;
};

export type DeliveryEngine = ReturnType<typeof createDeliveryEngine>;

export function createDeliveryEngine(cfg: EngineConfig, deps: { redis: Redis; queue: Queue; metrics: DeliveryMetrics }) {
  const leaseMs = cfg.connectTimeoutMs + cfg.requestTimeoutMs + LEASE_MARGIN_MS;
  const client = createWebhookClient({
    policy: cfg.policy,
    connectTimeoutMs: cfg.connectTimeoutMs,
    requestTimeoutMs: cfg.requestTimeoutMs,
  });
  const gate = createEndpointGate(deps.redis, cfg.prefix, cfg.endpointConcurrency);
  const claim = createBatcher((items: ClaimRequest[]) => claimDeliveries(items, leaseMs), BATCH);
  const unclaim = createBatcher(unclaimDeliveries, BATCH);
  const record = createBatcher(recordAttempts, BATCH);
  const { metrics } = deps;

  async function later(job: Job, token: string | undefined, at: number): Promise<never> {
    await job.moveToDelayed(at, token);
    throw new DelayedError();
  }

  /** Moves parked (delayed) jobs that were given a slot to the front of the queue. */
  async function promote(endpointId: string, ids: string[]) {
    for (const id of ids) {
      for (let tries = 0; tries < PROMOTE_TRIES; tries++) {
        try {
          await new Job(deps.queue, "deliver", {}, {}, id).promote();
          break;
        } catch {
          // Not delayed: still on its way into the delayed set (retry), running (it will park
          // again: put it back in line), or gone (nothing to wake).
          const state = await deps.queue.getJobState(id).catch(() => "unknown");
          if (state === "delayed") continue;
          if (state === "active") await gate.repark(endpointId, id);
          break;
        }
      }
    }
  }

  /** Wakes parked jobs of an endpoint into the slots that are free (or just `max`). */
  async function unparkAndPromote(endpointId: string, max = -1) {
    await promote(endpointId, await gate.unpark(endpointId, max));
  }

  async function park(job: Job, token: string | undefined, d: ClaimedDelivery, alreadyParked: boolean): Promise<never> {
    if (!alreadyParked) await gate.park(d.endpointId, job.id!);
    await unclaim({ delivery: d });
    metrics.parked.inc();
    const data = job.data as Record<string, unknown>;
    // A throttle slot reserved earlier is void after waiting in the parking lot.
    if (data.slotAt) await job.updateData({ ...data, slotAt: undefined });
    return later(job, token, Date.now() + PARK_TIMEOUT_MS);
  }

  async function deadLetterWithoutAttempt(d: ClaimedDelivery, reason: string) {
    if (d.trigger === "manual") {
      await unclaim({ delivery: d });
      return;
    }
    await db.delivery.updateMany({
      where: { id: d.id, status: "sending", nextAttemptAt: d.lease },
      data: { status: "failed", nextAttemptAt: null, deadReason: reason, deadAt: new Date() },
    });
    metrics.delivered("dead_letter");
  }

  function keysOf(ep: ClaimedDelivery["endpoint"], now: Date): string[] {
    const keys = [secretBox().open(ep.secretEncrypted)];
    if (ep.previousSecretEncrypted && ep.previousSecretExpiresAt && ep.previousSecretExpiresAt > now)
      keys.push(secretBox().open(ep.previousSecretEncrypted));
    return keys;
  }

  // Jobs of this process waiting for a slot of an endpoint that is at its cap. A release in this
  // process hands the freed slot on at once; after LOCAL_WAIT_MS a waiter parks instead, so a slow
  // endpoint's jobs hold a worker slot for at most that long.
  const waiters = new Map<string, (() => void)[]>();

  function waitForSlot(endpointId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const list = waiters.get(endpointId) ?? [];
      waiters.set(endpointId, list);
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const i = list.indexOf(wake);
        if (i >= 0) list.splice(i, 1);
        if (list.length === 0 && waiters.get(endpointId) === list) waiters.delete(endpointId);
        resolve();
      }, ms);
      list.push(wake);
    });
  }

  function slotFreed(endpointId: string) {
    const list = waiters.get(endpointId);
    const next = list?.shift();
    if (list && list.length === 0) waiters.delete(endpointId);
    next?.();
  }

  async function admit(d: ClaimedDelivery, member: string, slotAt: number | null): Promise<Exclude<Admission, { kind: "full" }>> {
    const deadline = Date.now() + LOCAL_WAIT_MS;
    for (;;) {
      const left = deadline - Date.now();
      const a = await gate.admit({
        endpointId: d.endpointId,
        member,
        leaseMs,
        ratePerSecond: d.endpoint.throttleRate ?? d.app.throttleRate,
        slotAt,
        parkIfFull: left <= 0,
      });
      if (a.kind === "full") {
        await waitForSlot(d.endpointId, left);
        continue;
      }
      // A throttle slot just ahead is waited for here rather than through the queue.
      if (a.kind === "throttle" && a.at - Date.now() <= LOCAL_WAIT_MS) {
        await sleep(a.at - Date.now());
        slotAt = a.at;
        continue;
      }
      return a;
    }
  }

  async function process(job: Job, token?: string): Promise<void> {
    const data = parseJob("deliver", job.data);
    const slotAt = typeof (job.data as { slotAt?: unknown }).slotAt === "number" ? (job.data as { slotAt: number }).slotAt : null;
    const claimed = await claim({ deliveryId: data.deliveryId, trigger: data.trigger });
    switch (claimed.kind) {
      case "missing":
      case "done":
        return;
      case "not_due":
        return later(job, token, claimed.at.getTime());
      case "busy":
        return later(job, token, claimed.until.getTime() + 1_000);
    }
    const d = claimed.delivery;
    const ep = d.endpoint;

    if (ep.state !== "active") return deadLetterWithoutAttempt(d, `endpoint_${ep.state}`);
    if (d.message.payload === null) return deadLetterWithoutAttempt(d, "payload_expunged");

    // Circuit breaker: an open circuit parks scheduled deliveries until a single probe succeeds.
    // Manual resends are explicit and go through.
    let probe = false;
    if (d.trigger === "scheduled") {
      const g = circuitGate(ep, cfg.circuitCooldownMs, Date.now());
      if (g === "wait") return park(job, token, d, false);
      if (g === "probe") {
        if (!(await gate.tryProbe(ep.id, job.id!, leaseMs))) return park(job, token, d, false);
        probe = true;
        await db.endpoint.updateMany({ where: { id: ep.id, circuitState: "open" }, data: { circuitState: "half_open" } });
      }
    }

    const admission = await admit(d, job.id!, slotAt);
    if (admission.kind !== "go") {
      if (probe) await gate.release(ep.id, job.id!, true, false);
      if (admission.kind === "park") return park(job, token, d, true);
      await unclaim({ delivery: d });
      metrics.throttled.inc();
      await job.updateData({ ...(job.data as object), slotAt: admission.at });
      return later(job, token, admission.at);
    }

    // The attempt.
    const attemptedAt = new Date();
    const body = buildBody(d.message, d.app.payloadFormat);
    const { headers, recorded } = buildHeaders({
      messageId: d.messageId,
      body,
      keys: keysOf(ep, attemptedAt),
      customHeaders: openHeaders(ep.headersEncrypted),
      timestamp: Math.floor(attemptedAt.getTime() / 1000),
    });
    metrics.inFlight.inc();
    const result = await client.post(ep.url, headers, body).finally(() => metrics.inFlight.dec());
    const verdict = classify(result);
    // Free the slot at once; after a success the endpoint's parked jobs take the free slots.
    const { parked, popped } = await gate.release(ep.id, job.id!, probe, verdict.kind === "success").catch((err: unknown) => {
      logger.warn({ err, endpointId: ep.id }, "could not release the in-flight slot; it lapses with its lease");
      return { parked: 0, popped: [] as string[] };
    });
    slotFreed(ep.id);
    if (popped.length > 0) void promote(ep.id, popped).catch((err: unknown) => logger.warn({ err }, "could not promote parked jobs"));

    const next = decideNext(d, verdict, result, cfg.retrySchedule, new Date());
    const attemptId = newId("attempt");
    const outcome = await record({
      delivery: d,
      attemptId,
      attemptedAt,
      requestHeaders: recorded,
      requestBody: body.toString("utf8"),
      result,
      success: verdict.kind === "success",
      next,
    });

    await afterAttempt(
      { delivery: d, verdict, next, result, attemptId, attemptedAt, outcome, parked: verdict.kind === "success" ? 0 : parked },
      { metrics, unparkAndPromote, autoDisableAfterMs: cfg.autoDisableAfterMs, autoDisableMinFailures: cfg.autoDisableMinFailures },
    );

    if (outcome.applied && d.trigger === "scheduled" && next.status === "pending" && next.nextAttemptAt) {
      try {
        await job.moveToDelayed(next.nextAttemptAt.getTime(), token);
      } catch (err) {
        // The job vanished from Redis (flushed?): the delivery is pending in PostgreSQL and the
        // sweeper enqueues it once it is overdue.
        logger.warn({ err, deliveryId: d.id }, "could not schedule the retry in Redis; the sweeper will");
        return;
      }
      throw new DelayedError();
    }
  }

  /** Periodic: wake parked jobs whose endpoint has room again, and let open circuits probe. */
  async function tick(): Promise<void> {
    const ids = await gate.parkedEndpoints();
    if (ids.length === 0) return;
    const eps = await db.endpoint.findMany({
      where: { id: { in: ids } },
      select: { id: true, state: true, circuitState: true, circuitOpenedAt: true, failingSince: true },
    });
    const byId = new Map(eps.map((e) => [e.id, e]));
    const now = Date.now();
    for (const id of ids) {
      const ep = byId.get(id);
      // Gone or no longer active: let the parked jobs run, they finish at once.
      if (!ep || ep.state !== "active") await unparkAndPromote(id);
      else {
        const g = circuitGate(ep, cfg.circuitCooldownMs, now);
        if (g === "closed") await unparkAndPromote(id);
        else if (g === "probe" && !(await gate.probeHeld(id))) await unparkAndPromote(id, 1);
      }
    }
  }

  async function close() {
    await Promise.all([claim.drain(), unclaim.drain(), record.drain()]);
    await client.close();
  }

  return { process, tick, close, gate, leaseMs };
}
