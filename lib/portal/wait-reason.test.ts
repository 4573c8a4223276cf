import { describe, expect, it } from "vitest";
import { nextProbeAt } from "../delivery/circuit-breaker";
import { mayBeParked, waitReason, type WaitInput } from "./wait-reason";

const now = Date.parse("2026-01-01T12:00:00Z");
const at = (ms: number) => new Date(now + ms);
const config = { circuitCooldownMs: 30_000, endpointConcurrency: 10 };

function input(over: { delivery?: Partial<WaitInput["delivery"]>; endpoint?: Partial<WaitInput["endpoint"]>; parked?: boolean; appThrottleRate?: number | null } = {}): WaitInput {
  return {
    delivery: { status: "pending", attemptCount: 1, nextAttemptAt: at(-1_000), ...over.delivery },
    endpoint: {
      state: "active",
      disabledReason: null,
      circuitState: "closed",
      circuitOpenedAt: null,
      circuitProbeAt: null,
      failingSince: null,
      consecutiveFailures: 0,
      throttleRate: null,
      ...over.endpoint,
    },
    appThrottleRate: over.appThrottleRate ?? null,
    parked: over.parked ?? false,
    config,
    now,
  };
}

describe("why a delivery waits", () => {
  it("says nothing for finished deliveries", () => {
    for (const status of ["succeeded", "failed", "canceled"] as const) expect(waitReason(input({ delivery: { status } }))).toBeNull();
  });

  it("an attempt in flight", () => {
    expect(waitReason(input({ delivery: { status: "sending" } }))).toEqual({ kind: "sending" });
  });

  it("a scheduled retry, with the time", () => {
    expect(waitReason(input({ delivery: { nextAttemptAt: at(60_000) } }))).toEqual({
      kind: "scheduled",
      at: at(60_000).toISOString(),
      first: false,
      circuit: null,
    });
    expect(waitReason(input({ delivery: { attemptCount: 0, nextAttemptAt: at(5_000) } }))).toMatchObject({ kind: "scheduled", first: true });
  });

  it("a due delivery behind an open circuit: failing since when, and when the next probe goes", () => {
    const endpoint = { circuitState: "open" as const, circuitOpenedAt: at(-10_000), failingSince: at(-60_000), consecutiveFailures: 10 };
    const probe = nextProbeAt(endpoint, config.circuitCooldownMs)!.toISOString();
    const circuit = { failingSince: at(-60_000).toISOString(), openedAt: at(-10_000).toISOString(), failures: 10, nextProbeAt: probe, probing: false };
    expect(waitReason(input({ endpoint }))).toEqual({ kind: "circuit_open", ...circuit });
    expect(waitReason(input({ endpoint: { ...endpoint, circuitState: "half_open" } }))).toMatchObject({ kind: "circuit_open", probing: true });
    // A recover or retry asked for the probe: the next probe is then, as the engine sees it, and
    // as its time has passed the probe is going now (no "next probe at … (1 second ago)").
    expect(waitReason(input({ endpoint: { ...endpoint, circuitProbeAt: at(-1_000) } }))).toMatchObject({
      kind: "circuit_open",
      nextProbeAt: at(-1_000).toISOString(),
      probing: true,
    });
    // The cool-down is over but the probe is not under way yet: probing all the same.
    expect(waitReason(input({ endpoint: { ...endpoint, circuitOpenedAt: at(-40_000) } }))).toMatchObject({ kind: "circuit_open", probing: true });
    // More failures (a failed probe, or several recorded at once as it opened): counted, with the
    // last one's time; the outage's start stays.
    expect(waitReason(input({ endpoint: { ...endpoint, consecutiveFailures: 11 } }))).toMatchObject({
      kind: "circuit_open",
      failingSince: at(-60_000).toISOString(),
      failures: 11,
      openedAt: at(-10_000).toISOString(),
    });
    // A retry whose timer still runs names its time, and the circuit beside it.
    expect(waitReason(input({ endpoint, delivery: { nextAttemptAt: at(600_000) } }))).toMatchObject({ kind: "scheduled", circuit });
  });

  it("parked at the endpoint's in-flight limit", () => {
    expect(waitReason(input({ parked: true }))).toEqual({ kind: "in_flight_limit", limit: 10 });
  });

  it("throttled to the endpoint's rate, else the application's", () => {
    expect(waitReason(input({ endpoint: { throttleRate: 2 } }))).toEqual({ kind: "throttled", ratePerSecond: 2 });
    expect(waitReason(input({ appThrottleRate: 5 }))).toEqual({ kind: "throttled", ratePerSecond: 5 });
    expect(waitReason(input({ endpoint: { throttleRate: 2 }, appThrottleRate: 5 }))).toEqual({ kind: "throttled", ratePerSecond: 2 });
  });

  it("a paused or disabled endpoint", () => {
    expect(waitReason(input({ endpoint: { state: "paused" }, delivery: { nextAttemptAt: at(60_000) } }))).toEqual({
      kind: "endpoint_paused",
      dueAt: at(60_000).toISOString(),
    });
    expect(waitReason(input({ endpoint: { state: "disabled", disabledReason: "failing for 5 days" } }))).toMatchObject({
      kind: "endpoint_disabled",
      reason: "failing for 5 days",
    });
  });

  it("due and admitted: queued for the next worker", () => {
    expect(waitReason(input())).toEqual({ kind: "queued", since: at(-1_000).toISOString() });
  });

  it("asks Redis about parking only for due deliveries of an active endpoint with a closed circuit", () => {
    const base = { appThrottleRate: null, now };
    const i = input();
    expect(mayBeParked({ ...base, delivery: i.delivery, endpoint: i.endpoint })).toBe(true);
    expect(mayBeParked({ ...base, delivery: { ...i.delivery, nextAttemptAt: at(1_000) }, endpoint: i.endpoint })).toBe(false);
    expect(mayBeParked({ ...base, delivery: i.delivery, endpoint: { ...i.endpoint, circuitState: "open" } })).toBe(false);
    expect(mayBeParked({ ...base, delivery: { ...i.delivery, status: "sending" }, endpoint: i.endpoint })).toBe(false);
  });
});
