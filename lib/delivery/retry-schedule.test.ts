import { describe, expect, it } from "vitest";
import {
  applyRetryAfter,
  DEFAULT_RETRY_SCHEDULE,
  parseRetryAfter,
  resolveSchedule,
  scheduledDelayMs,
} from "./retry-schedule";

describe("retry schedule", () => {
  it("is immediate, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: 8 attempts over about 27.5 h", () => {
    expect(DEFAULT_RETRY_SCHEDULE).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    const total = DEFAULT_RETRY_SCHEDULE.reduce((a, b) => a + b, 0) / 3600;
    expect(total).toBeCloseTo(27.5, 0);
  });

  it("spreads each delay by ±20% and ends when the schedule is exhausted", () => {
    expect(scheduledDelayMs([5, 300], 1, () => 0)).toBe(4000);
    expect(scheduledDelayMs([5, 300], 1, () => 1)).toBe(6000);
    expect(scheduledDelayMs([5, 300], 2, () => 0.5)).toBe(300_000);
    expect(scheduledDelayMs([5, 300], 3)).toBeNull();
  });

  it("prefers the endpoint's schedule, then the environment's, then HERALD_RETRY_SCHEDULE, then the default", () => {
    expect(resolveSchedule([1, 2], [3], [4])).toEqual([1, 2]);
    expect(resolveSchedule([], [3], [4])).toEqual([3]);
    expect(resolveSchedule([], [], [4])).toEqual([4]);
    expect(resolveSchedule([], [], undefined)).toEqual(DEFAULT_RETRY_SCHEDULE);
  });

  it("clamps overrides to the allowed bounds", () => {
    expect(resolveSchedule([0, 999_999], [], undefined)).toEqual([1, 86_400]);
    expect(resolveSchedule(new Array<number>(40).fill(1), [], undefined)).toHaveLength(19);
  });
});

describe("Retry-After", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");

  it("reads delta-seconds and HTTP dates", () => {
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:01:00 GMT", now)).toBe(60_000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });

  it("is never undercut: the next attempt waits at least Retry-After, jitter only adds, up to 24 h", () => {
    const low = () => 0;
    const high = () => 1;
    // Longer than the scheduled step: Retry-After, plus up to 20% of it; never the 2× clamp.
    expect(applyRetryAfter(5_000, 60_000, low)).toEqual({ delayMs: 60_000, honouredMs: 60_000 });
    expect(applyRetryAfter(5_000, 60_000, high)).toEqual({ delayMs: 72_000, honouredMs: 60_000 });
    // A jittered step below Retry-After (1 s - 20%) does not pull the attempt earlier than it.
    for (const r of [0, 0.25, 0.5, 0.75, 1])
      expect(applyRetryAfter(800, 2_000, () => r).delayMs).toBeGreaterThanOrEqual(2_000);
    // Shorter than the step: the step stands (Retry-After says "not before", not "at").
    expect(applyRetryAfter(5_000, 1_000, high)).toEqual({ delayMs: 5_000, honouredMs: 1_000 });
    expect(applyRetryAfter(5_000, 0, high)).toEqual({ delayMs: 5_000, honouredMs: 0 });
    // Capped at a day, jitter included.
    expect(applyRetryAfter(5_000, 40 * 3600_000, high)).toEqual({ delayMs: 24 * 3600_000, honouredMs: 24 * 3600_000 });
    expect(applyRetryAfter(5_000, 23.5 * 3600_000, high).delayMs).toBe(24 * 3600_000);
    // Absent or unreadable: the schedule alone, nothing honoured.
    expect(applyRetryAfter(5_000, null)).toEqual({ delayMs: 5_000, honouredMs: null });
  });
});
