import { DelayedError, type Job } from "bullmq";
import type { RedisClient } from "../queue/connection";
import { db } from "../db";
import { newId } from "../ids";
import { logger } from "../logger";
import { catalog, parseJob } from "../queue/catalog";
import { secretBox } from "../services";
import type { AddressPolicy } from "../ssrf/ip-policy";
import type { DeliveryMetrics } from "../metrics/delivery-metrics";
import { createBatcher } from "./batcher";
import { buildBody, buildHeaders } from "./build-request";
import { circuitGate, type CircuitView } from "./circuit-breaker";
import { claimDeliveries, unclaimDeliveries, type ClaimedDelivery, type ClaimRequest } from "./claim-deliveries";
import { classify } from "./classify-response";
import { decideNext } from "./decide-next";
import { createEndpointGate, memberOf, parseMember, type Admission, type Lease } from "./endpoint-gate";
import { enqueueResumed } from "./enqueue-deliveries";
import { createLocalSlots, LOCAL_WAIT_MS } from "./local-slots";
import { createTransport } from "./transports";
import { afterAttempt } from "./after-attempt";
import { recordAttempts, type RecordOutcome } from "./record-attempts";

// One delivery job, end to end: admission (circuit / in-flight cap) -> claim (compare-and-set)
// -> throttle -> sign and POST -> record the attempt with the delivery's next state -> side
// effects (retry timer, endpoint health, operational webhooks, waking parked jobs). Database work
// of concurrent jobs is batched; a job never waits for another endpoint.
//
// A delivery published to a blocked endpoint (its parked deliveries are not moving) gets no job
// at all: it is parked behind them as it is enqueued (lib/delivery/enqueue-deliveries.ts). So a
// blocked endpoint costs the worker nothing per delivery it receives once it counts as blocked.
// For the jobs that do come (published just before, retries, the sweeper's), admission comes
// before the claim when the job names its endpoint and this process knows the endpoint (a hint
// from its last claim or attempt, at most HINT_TTL_MS old) as blocked — circuit open, or too slow
// or stalled to wait for here: a delivery that has to wait is parked with one Redis call, without
// reading its payload or secrets and without a claim to undo. Otherwise (an unknown or throttled
// endpoint, a probe, a resumed job) the claim comes first and admission follows, as the claim is
// what tells the settings.

/** A claim's lease outlives the longest possible attempt by this much. */
export const LEASE_MARGIN_MS = 10_000;
/**
 * An in-flight slot's lease passes from one request to the next in this process without a Redis
 * call until it has run this long; then it is renewed. Less than LEASE_MARGIN_MS, so a lease
 * handed over always outlives the longest possible request.
 */
const LEASE_RENEW_AFTER_MS = LEASE_MARGIN_MS / 2;
/**
 * A lease becomes the endpoint's spare (lib/delivery/local-slots.ts) only while it is younger than
 * this: so even an endpoint whose spare passes from job to job goes back to Redis every second,
 * where the release wakes deliveries that other processes parked for it meanwhile.
 */
const SPARE_MAX_AGE_MS = 1_000;

const BATCH = { maxBatch: 100, maxConcurrent: 2, windowMs: 3 };
/** A throttle slot this close is waited for inside the job rather than through the delayed queue. */
const THROTTLE_LOCAL_WAIT_MS = 250;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const OPENED_CACHE_MAX = 10_000;
/** How long what a claim or an attempt told about an endpoint is trusted for admission before a claim. */
const HINT_TTL_MS = 2_000;
const HINTS_MAX = 10_000;
/** Waits between tries of writing an attempt's record (a database blip must not lose it). */
const RECORD_RETRY_MS = [200, 1_000, 5_000];

async function withRetries<T>(fn: () => Promise<T>): Promise<T> {
  for (const wait of RECORD_RETRY_MS) {
    try {
      return await fn();
    } catch (err) {
      logger.warn({ err, retryInMs: wait }, "could not record an attempt; retrying");
      await sleep(wait);
    }
  }
  // Still failing: the job fails, the delivery stays "sending" until its lease expires, and the
  // next claim records the attempt as interrupted and tries again.
  return fn();
}

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

export function createDeliveryEngine(cfg: EngineConfig, deps: { redis: RedisClient; metrics: DeliveryMetrics }) {
  const leaseMs = cfg.connectTimeoutMs + cfg.requestTimeoutMs + LEASE_MARGIN_MS;
  const client = createTransport({
    policy: cfg.policy,
    connectTimeoutMs: cfg.connectTimeoutMs,
    requestTimeoutMs: cfg.requestTimeoutMs,
  });
  const gate = createEndpointGate(deps.redis, cfg.prefix, cfg.endpointConcurrency);
  const claim = createBatcher((items: ClaimRequest[]) => claimDeliveries(items, leaseMs), BATCH);
  const unclaim = createBatcher(unclaimDeliveries, BATCH);
  const record = createBatcher(recordAttempts, BATCH);
  const { metrics } = deps;
  const local = createLocalSlots(cfg.endpointConcurrency);

  type Hint = { throttled: boolean; circuit: CircuitView; until: number };
  const hints = new Map<string, Hint>();
  function learn(d: ClaimedDelivery) {
    if (hints.size >= HINTS_MAX) hints.clear();
    const ep = d.endpoint;
    hints.set(ep.id, {
      throttled: Boolean(ep.throttleRate ?? d.app.throttleRate) || ep.state !== "active",
      circuit: {
        circuitState: ep.circuitState,
        circuitOpenedAt: ep.circuitOpenedAt,
        failingSince: ep.failingSince,
        circuitProbeAt: ep.circuitProbeAt,
      },
      until: Date.now() + HINT_TTL_MS,
    });
  }
  /** An attempt's record changed the endpoint's circuit: hints follow at once. */
  function relearnCircuit(health: NonNullable<RecordOutcome["endpoint"]>) {
    const h = hints.get(health.id);
    if (h)
      h.circuit = {
        circuitState: health.circuitState,
        circuitOpenedAt: health.circuitOpenedAt,
        failingSince: health.failingSince,
        circuitProbeAt: null,
      };
  }
  const hintFor = (endpointId: string | undefined) => {
    if (!endpointId) return undefined;
    const h = hints.get(endpointId);
    return h && h.until > Date.now() ? h : undefined;
  };

  async function later(job: Job, token: string | undefined, at: number): Promise<never> {
    await job.moveToDelayed(at, token);
    throw new DelayedError();
  }

  /** Parked members that were given a slot go back through the small resume queue. */
  async function resume(members: string[]) {
    if (members.length > 0) await enqueueResumed(members.map(parseMember));
  }

  /** Wakes parked members of an endpoint into the slots that are free (or just `max`). */
  async function unparkAndResume(endpointId: string, max = -1) {
    const { popped, left } = await gate.unpark(endpointId, max);
    await resume(popped);
    if (left === 0) await gate.forgetIfEmpty(endpointId);
  }

  /**
   * Parks the delivery: its member waits in the endpoint's parked set (already put there by the
   * admission, or now), the claim is given back, and this job ends. It is resumed when a slot
   * frees up (or the circuit's probe is due); the sweeper re-enqueues it if Redis loses it.
   */
  async function park(d: ClaimedDelivery, member: string, alreadyParked: boolean): Promise<void> {
    if (!alreadyParked) await gate.park(d.endpointId, member);
    await unclaim({ delivery: d });
    metrics.parked.inc();
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

  // Opened secrets and custom headers, by their sealed form (which changes whenever they do).
  const opened = new Map<string, string>();
  const open = (sealed: string) => {
    let plain = opened.get(sealed);
    if (plain === undefined) {
      if (opened.size >= OPENED_CACHE_MAX) opened.clear();
      plain = secretBox().open(sealed);
      opened.set(sealed, plain);
    }
    return plain;
  };

  function keysOf(ep: ClaimedDelivery["endpoint"], now: Date): string[] {
    const keys = [open(ep.secretEncrypted)];
    if (ep.previousSecretEncrypted && ep.previousSecretExpiresAt && ep.previousSecretExpiresAt > now)
      keys.push(open(ep.previousSecretEncrypted));
    return keys;
  }

  const headersOf = (ep: ClaimedDelivery["endpoint"]): Record<string, string> =>
    ep.headersEncrypted ? (JSON.parse(open(ep.headersEncrypted)) as Record<string, string>) : {};

  /**
   * Takes an in-flight slot of the endpoint: at once, after a short wait in this process for a
   * fast endpoint's slot, or not at all ("park", or "throttle" until the endpoint's next slot).
   * A resumed job holds a reservation for a slot, so it asks Redis straight away.
   */
  async function admit(
    endpointId: string,
    member: string,
    ratePerSecond: number | null,
    slotAt: number | null,
    resumed: boolean,
  ): Promise<Exclude<Admission, { kind: "full" }>> {
    // The endpoint's spare lease, when a request of this process just ended and nobody waits.
    if (!resumed && !ratePerSecond && local.waiting(endpointId) === 0) {
      const spare = takeSpare(endpointId);
      if (spare) return { kind: "go", lease: spare };
    }
    let parkIfFull = false;
    const deadline = Date.now() + 2 * LOCAL_WAIT_MS;
    // Others of this process already wait for this endpoint: join them (slots are handed over).
    let full = !resumed && !ratePerSecond && local.waiting(endpointId) > 0;
    for (;;) {
      if (full) {
        // A request of this process kept its lease as a spare meanwhile: no one here to hand it over.
        const spare = ratePerSecond ? null : takeSpare(endpointId);
        if (spare) return { kind: "go", lease: spare };
        // Wait here while it is worth it and the endpoint makes progress; then park.
        if (Date.now() > deadline || !local.worthWaiting(endpointId)) parkIfFull = true;
        else {
          const outcome = await local.wait(endpointId);
          if (outcome.kind === "handed") return { kind: "go", lease: outcome.lease };
          if (outcome.kind === "stalled") parkIfFull = true;
        }
      }
      const a = await gate.admit({ endpointId, member, leaseMs, ratePerSecond, slotAt, parkIfFull });
      full = a.kind === "full";
      if (full || a.kind === "park") local.contended(endpointId);
      if (full) continue;
      // A throttle slot just ahead is waited for here rather than through the delayed queue.
      if (a.kind === "throttle" && a.at - Date.now() <= THROTTLE_LOCAL_WAIT_MS) {
        await sleep(a.at - Date.now());
        slotAt = a.at;
        continue;
      }
      return a as Exclude<Admission, { kind: "full" }>;
    }
  }

  /** Spares being given back after their linger (shutdown waits for them). */
  const givingBack = new Set<Promise<void>>();
  function lingerOver(endpointId: string, lease: Lease) {
    const p = giveBack(endpointId, lease).finally(() => givingBack.delete(p));
    givingBack.add(p);
  }

  /** How long ago a lease was taken or last renewed. */
  const ageOf = (lease: Lease) => leaseMs - (lease.until - Date.now());

  /** The endpoint's spare lease, if it has one that can still carry a whole request. */
  function takeSpare(endpointId: string): Lease | null {
    const spare = local.takeSpare(endpointId);
    if (spare && ageOf(spare) <= LEASE_RENEW_AFTER_MS) return spare;
    if (spare) lingerOver(endpointId, spare); // the event loop stalled: too old to trust
    return null;
  }

  /** A slot taken before a claim that then found nothing to send: back to Redis, parked ones woken. */
  async function giveBack(endpointId: string, lease: Lease) {
    try {
      const { popped } = await gate.release(endpointId, lease, null, true);
      await resume(popped);
    } catch (err) {
      logger.warn({ err, endpointId }, "could not give back an in-flight slot; it lapses with its lease");
    }
  }

  /**
   * Frees the slot of a request that ended: handed over to the next job waiting in this process
   * for the endpoint (not for throttled endpoints: every send needs its throttle slot), or given
   * back; with nobody waiting here, after a success (the circuit is closed) parked deliveries take
   * the free slots. A lease is handed over as it is while young, else renewed first (and always
   * when this request was the circuit's probe, whose token goes). Returns how many deliveries are
   * parked for the endpoint (0 when handed over).
   */
  async function releaseSlot(
    d: ClaimedDelivery,
    lease: Lease,
    probeMember: string | null,
    success: boolean,
    heldMs: number,
    resumed: boolean,
  ): Promise<number> {
    const throttled = Boolean(d.endpoint.throttleRate ?? d.app.throttleRate);
    const next = local.next(d.endpointId, heldMs);
    const age = ageOf(lease);
    try {
      if (next && !throttled) {
        const passed = age <= LEASE_RENEW_AFTER_MS && !probeMember ? lease : await gate.renew(d.endpointId, lease, probeMember, leaseMs);
        next.settle({ kind: "handed", lease: passed });
        return 0;
      }
      // Nobody waits here: after a success, a young lease may linger as the endpoint's spare. Not
      // a resumed job's: deliveries are parked for the endpoint, and the release wakes the next.
      const mayLinger = !next && !throttled && !probeMember && !resumed && success && age < SPARE_MAX_AGE_MS;
      if (mayLinger && local.keepSpare(d.endpointId, lease, (l) => lingerOver(d.endpointId, l))) return 0;
      const { parked, popped } = await gate.release(d.endpointId, lease, probeMember, success && !next);
      next?.settle({ kind: "retry" }); // a throttled endpoint's next job asks for its slot itself
      if (popped.length > 0)
        void resume(popped).catch((err: unknown) => logger.warn({ err }, "could not resume parked deliveries"));
      return success || next ? 0 : parked;
    } catch (err) {
      next?.settle({ kind: "retry" });
      logger.warn({ err, endpointId: d.endpointId }, "could not release the in-flight slot; it lapses with its lease");
      return 0;
    }
  }

  async function process(job: Job, token?: string): Promise<void> {
    const data = parseJob("deliver", job);
    const resumed = job.queueName === catalog["deliver.resume"].queue;
    const slotAt =
      typeof (job.data as { slotAt?: unknown }).slotAt === "number" ? (job.data as { slotAt: number }).slotAt : null;
    const member = memberOf(data.deliveryId, data.trigger);
    // A resumed job: deliveries were parked for its endpoint, so it keeps no spare for a while.
    if (resumed && data.endpointId) local.contended(data.endpointId);

    // Admission before the claim, from what this process knows of the endpoint (see the top).
    let preLease: Lease | null = null;
    const hint = resumed ? undefined : hintFor(data.endpointId);
    if (hint && data.endpointId) {
      const circuit = circuitGate(hint.circuit, cfg.circuitCooldownMs, Date.now());
      if (circuit === "wait" && data.trigger === "scheduled") {
        await gate.park(data.endpointId, member);
        metrics.parked.inc();
        return;
      }
      // Only for an endpoint not worth waiting for here (slow, or its wait stalled): a fast one's
      // jobs claim first and wait for a hand-over with the claim done, so the slot never waits
      // for a claim's round trip.
      // The process's own spare lease first, if it has one.
      const admitFirst = circuit === "closed" && !hint.throttled && !local.worthWaiting(data.endpointId);
      if (admitFirst) preLease = takeSpare(data.endpointId);
      if (admitFirst && !preLease) {
        const a = await gate.admit({
          endpointId: data.endpointId,
          member,
          leaseMs,
          ratePerSecond: null,
          slotAt: null,
          parkIfFull: true,
        });
        if (a.kind === "park") {
          local.contended(data.endpointId);
          metrics.parked.inc();
          return;
        }
        if (a.kind === "go") preLease = a.lease;
      }
    }

    const claimed = await claim({ deliveryId: data.deliveryId, trigger: data.trigger });
    if (claimed.kind !== "claimed" && preLease && data.endpointId) await giveBack(data.endpointId, preLease);
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
    learn(d);
    // A slot taken for another endpoint than the delivery's (a job with a wrong endpoint id) is not this one's.
    if (preLease && data.endpointId !== ep.id) {
      await giveBack(data.endpointId!, preLease);
      preLease = null;
    }
    const ratePerSecond = ep.throttleRate ?? d.app.throttleRate;

    if (ep.state !== "active" || d.message.payload === null) {
      if (preLease) await giveBack(ep.id, preLease);
      return deadLetterWithoutAttempt(d, ep.state !== "active" ? `endpoint_${ep.state}` : "payload_expunged");
    }

    // Circuit breaker: an open circuit parks scheduled deliveries until a single probe succeeds.
    // Manual resends are explicit and go through.
    let probe = false;
    if (d.trigger === "scheduled") {
      const g = circuitGate(ep, cfg.circuitCooldownMs, Date.now());
      if (g !== "closed" && preLease) {
        // The hint was stale: the circuit opened meanwhile.
        await gate.release(ep.id, preLease, null, false).catch(() => undefined);
        preLease = null;
      }
      if (g === "wait") return park(d, member, false);
      if (g === "probe") {
        if (!(await gate.tryProbe(ep.id, member, leaseMs))) return park(d, member, false);
        probe = true;
        await db.endpoint.updateMany({
          where: { id: ep.id, circuitState: "open" },
          data: { circuitState: "half_open" },
        });
      }
    }
    if (preLease && ratePerSecond) {
      // Throttled since the hint: every send needs its throttle slot.
      await giveBack(ep.id, preLease);
      preLease = null;
    }

    const admission: Exclude<Admission, { kind: "full" }> = preLease
      ? { kind: "go", lease: preLease }
      : await admit(ep.id, member, ratePerSecond, slotAt, resumed);
    if (admission.kind !== "go") {
      if (probe) await gate.release(ep.id, null, member, false);
      if (admission.kind === "park") return park(d, member, true);
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
      customHeaders: headersOf(ep),
      timestamp: Math.floor(attemptedAt.getTime() / 1000),
    });
    metrics.inFlight.inc();
    const result = await client.post(ep.url, headers, body).finally(() => metrics.inFlight.dec());
    const verdict = classify(result);
    const parked = await releaseSlot(
      d,
      admission.lease,
      probe ? member : null,
      verdict.kind === "success",
      Date.now() - attemptedAt.getTime(),
      resumed,
    );

    const next = decideNext(d, verdict, result, cfg.retrySchedule, new Date());
    const attemptId = newId("attempt");
    const outcome = await withRetries(() =>
      record({
        delivery: d,
        attemptId,
        attemptedAt,
        requestHeaders: recorded,
        requestBody: body.toString("utf8"),
        result,
        success: verdict.kind === "success",
        next,
      }),
    );

    if (outcome.endpoint) relearnCircuit(outcome.endpoint);
    await afterAttempt(
      { delivery: d, verdict, next, result, attemptId, attemptedAt, outcome, parked },
      {
        metrics,
        unparkAndResume,
        autoDisableAfterMs: cfg.autoDisableAfterMs,
        autoDisableMinFailures: cfg.autoDisableMinFailures,
      },
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
      select: { id: true, state: true, circuitState: true, circuitOpenedAt: true, circuitProbeAt: true, failingSince: true },
    });
    const byId = new Map(eps.map((e) => [e.id, e]));
    const now = Date.now();
    for (const id of ids) {
      const ep = byId.get(id);
      // Gone or no longer active: let the parked jobs run, they finish at once.
      if (!ep || ep.state !== "active") await unparkAndResume(id);
      else {
        const g = circuitGate(ep, cfg.circuitCooldownMs, now);
        if (g === "closed") await unparkAndResume(id);
        else if (g === "probe" && !(await gate.probeHeld(id))) await unparkAndResume(id, 1);
      }
    }
  }

  async function close() {
    await Promise.all([...local.takeAllSpares().map((s) => giveBack(s.endpointId, s.lease)), ...givingBack]);
    await Promise.all([claim.drain(), unclaim.drain(), record.drain()]);
    await client.close();
  }

  return { process, tick, close };
}
