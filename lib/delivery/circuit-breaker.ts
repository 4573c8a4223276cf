import type { CircuitState } from "../generated/prisma/client";

// Per-endpoint circuit breaker, kept on the endpoint row (circuit_state, circuit_opened_at,
// consecutive_failures, failing_since) and so visible in the API:
//   closed     deliveries flow.
//   open       after CIRCUIT_OPEN_AFTER_FAILURES consecutive failed attempts. Due deliveries wait
//              (parked) instead of being attempted; none of their schedule is used up.
//   half_open  once the cool-down has passed, a single delivery goes through as a probe. Success
//              closes the circuit and the waiting deliveries flow again; failure re-opens it.
// The cool-down grows with the length of the outage, so a long-dead endpoint is probed rarely.

export const CIRCUIT_OPEN_AFTER_FAILURES = 10;
/** The cool-down is this fraction of the time the endpoint has been failing... */
export const CIRCUIT_COOLDOWN_FRACTION = 0.25;
/** ...but never more than this. */
export const CIRCUIT_COOLDOWN_MAX_MS = 10 * 60_000;

// An explicit action on an open circuit's endpoint (recover, bulk retry) sets circuit_probe_at:
// its first delivery is the probe at once instead of waiting out the cool-down, so an operator who
// says "the endpoint is back, send" sees it happen (a manual resend bypasses the breaker anyway).

export type CircuitView = {
  circuitState: CircuitState;
  circuitOpenedAt: Date | null;
  failingSince: Date | null;
  /** An explicit action asked for the probe from then (circuit_probe_at). */
  circuitProbeAt?: Date | null;
};

export function cooldownMs(ep: CircuitView, baseMs: number, now: number): number {
  const failingFor = ep.failingSince ? now - ep.failingSince.getTime() : 0;
  return Math.min(CIRCUIT_COOLDOWN_MAX_MS, Math.max(baseMs, failingFor * CIRCUIT_COOLDOWN_FRACTION));
}

/**
 * When the open circuit's probe is due: the first instant t with t >= openedAt + cooldown(t)
 * (the cool-down grows with t, a quarter as fast, so there is one such first instant). Null
 * while closed. In the past when a probe may go now (or one is under way, half_open).
 */
export function nextProbeAt(ep: CircuitView, baseMs: number): Date | null {
  if (ep.circuitState === "closed") return null;
  const openedAt = ep.circuitOpenedAt?.getTime() ?? 0;
  const floor = Math.min(CIRCUIT_COOLDOWN_MAX_MS, baseMs);
  let at = openedAt + floor;
  if (ep.failingSince && floor < CIRCUIT_COOLDOWN_MAX_MS) {
    const f = CIRCUIT_COOLDOWN_FRACTION;
    // Past the base, the cool-down is f × (t - failingSince): t - openedAt = f × (t - failingSince).
    if (f * (at - ep.failingSince.getTime()) > floor) at = (openedAt - f * ep.failingSince.getTime()) / (1 - f);
    at = Math.min(at, openedAt + CIRCUIT_COOLDOWN_MAX_MS);
  }
  const asked = ep.circuitProbeAt?.getTime();
  if (asked !== undefined && asked < at) at = asked;
  return new Date(Math.ceil(at));
}

/** closed: go. wait: park until a probe succeeds. probe: this attempt may be the single probe. */
export function circuitGate(ep: CircuitView, baseMs: number, now: number): "closed" | "wait" | "probe" {
  const at = nextProbeAt(ep, baseMs);
  if (at === null) return "closed";
  return now >= at.getTime() ? "probe" : "wait";
}

/**
 * What every view tells a person about an open circuit (the state badge, the wait reasons, the
 * endpoint's notice), so the portal and the console use one vocabulary: "open" while it waits out
 * the cool-down, "probing" once the probe is under way (half_open) or due (its time has passed and
 * the next worker sends it), so no view says "next probe at … (6 seconds ago)". The views say
 * "probe due" then, not "probing now": a due probe goes with the next delivery, which may be a
 * retry an hour away.
 */
export type CircuitPhase = "closed" | "open" | "probing";

export function circuitPhase(state: CircuitState, probeAt: Date | string | null | undefined, now: number): CircuitPhase {
  if (state === "closed") return "closed";
  if (state === "half_open") return "probing";
  return probeAt != null && new Date(probeAt).getTime() <= now ? "probing" : "open";
}

