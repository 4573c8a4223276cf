import type { CircuitState, DeliveryStatus, EndpointState } from "../generated/prisma/client";
import { circuitPhase, nextProbeAt } from "../delivery/circuit-breaker";
import { createEndpointGate, memberOf } from "../delivery/endpoint-gate";
import { env } from "../env";
import { logger } from "../logger";
import { keyPrefix, redis } from "../queue/connection";

// Why a delivery that is not finished is waiting, and until when: what the log row and the
// inspector say instead of a bare "Pending · next 15 minutes ago". One function, so the two
// places (and docs/portal.md) never disagree. The order follows the engine (lib/delivery/engine.ts):
// an attempt in flight; a paused or disabled endpoint (its due deliveries are dead-lettered); a
// retry timer still running; then, for a due delivery, the circuit breaker, the in-flight cap
// (the delivery is parked in Redis) and the throttle, in the order the engine checks them.

/**
 * An open circuit as the views say it (lib/delivery/circuit-breaker.ts): failing since when (the
 * start of the outage, which no probe moves, so every view and refresh names the same moment);
 * how many attempts in a row failed, the last at openedAt (every failure past the threshold moves
 * it; whether one of them was a failed probe the counts cannot tell, as several failures are
 * recorded at once, so no view claims a re-opening); probing when the probe is under
 * way or due.
 */
export type CircuitWait = {
  failingSince: string | null;
  openedAt: string | null;
  failures: number;
  nextProbeAt: string | null;
  probing: boolean;
};

export type WaitReason =
  | { kind: "sending" }
  | { kind: "endpoint_paused"; dueAt: string | null }
  | { kind: "endpoint_disabled"; reason: string | null; dueAt: string | null }
  /** first: no attempt yet. The circuit, when open, is mentioned beside the time. */
  | { kind: "scheduled"; at: string; first: boolean; circuit: CircuitWait | null }
  | ({ kind: "circuit_open" } & CircuitWait)
  | { kind: "in_flight_limit"; limit: number }
  | { kind: "throttled"; ratePerSecond: number }
  /** Due, admitted by every gate: the next free worker takes it. */
  | { kind: "queued"; since: string | null };

export type WaitInput = {
  delivery: { status: DeliveryStatus; attemptCount: number; nextAttemptAt: Date | null };
  endpoint: {
    state: EndpointState;
    disabledReason: string | null;
    circuitState: CircuitState;
    circuitOpenedAt: Date | null;
    /** An explicit action (recover, retry) asked for the probe from then: the engine probes at once. */
    circuitProbeAt: Date | null;
    failingSince: Date | null;
    consecutiveFailures: number;
    throttleRate: number | null;
  };
  /** The application's rate limit, used when the endpoint has none (as the engine does). */
  appThrottleRate: number | null;
  /** Is the delivery parked in its endpoint's gate (waiting for an in-flight slot)? */
  parked: boolean;
  config: { circuitCooldownMs: number; endpointConcurrency: number };
  now: number;
};

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The endpoint columns a wait reason reads: the delivery log and the inspector select the same ones. */
export const WAIT_ENDPOINT_SELECT = {
  state: true,
  disabledReason: true,
  circuitState: true,
  circuitOpenedAt: true,
  circuitProbeAt: true,
  failingSince: true,
  consecutiveFailures: true,
  throttleRate: true,
} as const;

function circuitWait(ep: WaitInput["endpoint"], cooldownMs: number, now: number): CircuitWait | null {
  if (ep.circuitState === "closed") return null;
  const probeAt = nextProbeAt(ep, cooldownMs);
  return {
    failingSince: iso(ep.failingSince),
    openedAt: iso(ep.circuitOpenedAt),
    failures: ep.consecutiveFailures,
    nextProbeAt: iso(probeAt),
    probing: circuitPhase(ep.circuitState, probeAt, now) === "probing",
  };
}

/** null when the delivery is not waiting (succeeded, dead-lettered, cancelled). */
export function waitReason(i: WaitInput): WaitReason | null {
  const { delivery: d, endpoint: ep } = i;
  if (d.status === "sending") return { kind: "sending" };
  if (d.status !== "pending") return null;
  if (ep.state === "paused") return { kind: "endpoint_paused", dueAt: iso(d.nextAttemptAt) };
  if (ep.state === "disabled") return { kind: "endpoint_disabled", reason: ep.disabledReason, dueAt: iso(d.nextAttemptAt) };
  const circuit = circuitWait(ep, i.config.circuitCooldownMs, i.now);
  if (d.nextAttemptAt && d.nextAttemptAt.getTime() > i.now)
    return { kind: "scheduled", at: d.nextAttemptAt.toISOString(), first: d.attemptCount === 0, circuit };
  if (circuit) return { kind: "circuit_open", ...circuit };
  if (i.parked) return { kind: "in_flight_limit", limit: i.config.endpointConcurrency };
  const rate = ep.throttleRate ?? i.appThrottleRate;
  if (rate) return { kind: "throttled", ratePerSecond: rate };
  return { kind: "queued", since: iso(d.nextAttemptAt) };
}

/** Only a due, pending delivery of an active endpoint with a closed circuit can be parked for a slot. */
export function mayBeParked(i: Omit<WaitInput, "parked" | "config">): boolean {
  const { delivery: d, endpoint: ep } = i;
  return (
    d.status === "pending" &&
    ep.state === "active" &&
    ep.circuitState === "closed" &&
    (!d.nextAttemptAt || d.nextAttemptAt.getTime() <= i.now)
  );
}

type Item = { id: string; delivery: WaitInput["delivery"] & { endpointId: string }; endpoint: WaitInput["endpoint"] };

/**
 * The wait reasons of a page of deliveries (by delivery id). Which due deliveries are parked for
 * an in-flight slot is only known to Redis: one read per endpoint on the page. Redis
 * being unreachable only makes those say "queued", never fails the page.
 */
export async function waitReasons(items: Item[], appThrottleRate: number | null): Promise<Map<string, WaitReason | null>> {
  const cfg = env();
  const config = { circuitCooldownMs: cfg.HERALD_CIRCUIT_COOLDOWN_MS, endpointConcurrency: cfg.HERALD_ENDPOINT_CONCURRENCY };
  const now = Date.now();
  const candidates = items.filter((it) => mayBeParked({ ...it, appThrottleRate, now }));
  const parked = new Set<string>();
  if (candidates.length > 0) {
    try {
      const gate = createEndpointGate(redis(), keyPrefix(), cfg.HERALD_ENDPOINT_CONCURRENCY);
      // A manual resend parks under its own member name.
      const members = candidates.flatMap((c) =>
        (["scheduled", "manual"] as const).map((t) => ({ id: c.id, endpointId: c.delivery.endpointId, member: memberOf(c.id, t) })),
      );
      const found = await gate.parkedMembers(members);
      members.forEach((m, k) => found[k] && parked.add(m.id));
    } catch (err) {
      logger.warn({ err }, "could not read parked deliveries; the log shows them as queued");
    }
  }
  return new Map(items.map((it) => [it.id, waitReason({ ...it, appThrottleRate, parked: parked.has(it.id), config, now })]));
}
