import { describe, expect, it } from "vitest";
import type { ClaimedDelivery } from "./claim-deliveries";
import { classify } from "./classify-response";
import { decideNext } from "./decide-next";
import type { AttemptResult } from "./http-client";

const now = new Date("2026-01-01T00:00:00Z");
const answer = (status: number, headers: Record<string, string> = {}): AttemptResult => ({
  status,
  headers,
  body: "",
  truncated: false,
  durationMs: 5,
  errorClass: status ? null : "timeout",
  errorMessage: null,
});

function delivery(over: Partial<ClaimedDelivery> = {}): ClaimedDelivery {
  return {
    id: "dlv_1",
    trigger: "scheduled",
    prevStatus: "pending",
    prevNextAt: new Date("2025-12-31T23:59:00Z"),
    prevDeadReason: null,
    prevDeadAt: null,
    scheduledAttempts: 0,
    endpoint: { retrySchedule: [] },
    environmentRetrySchedule: [],
    ...over,
  } as ClaimedDelivery;
}

const next = (d: ClaimedDelivery, a: AttemptResult, schedule = [10, 20]) =>
  decideNext(d, classify(a), a, schedule, now);

describe("the delivery's next state", () => {
  it("succeeds on 2xx", () => {
    expect(next(delivery(), answer(204))).toMatchObject({ status: "succeeded", nextAttemptAt: null, deadReason: null });
  });

  it("retries on the schedule, then dead-letters as exhausted", () => {
    const first = next(delivery(), answer(500));
    expect(first.status).toBe("pending");
    const delay = first.nextAttemptAt!.getTime() - now.getTime();
    expect(delay).toBeGreaterThanOrEqual(8_000);
    expect(delay).toBeLessThanOrEqual(12_000);
    expect(next(delivery({ scheduledAttempts: 2 }), answer(0))).toMatchObject({
      status: "failed",
      deadReason: "exhausted",
    });
  });

  it("dead-letters non-retryable answers at once", () => {
    expect(next(delivery(), answer(404))).toMatchObject({ status: "failed", deadReason: "http_404", deadAt: now });
    expect(next(delivery(), answer(410))).toMatchObject({ status: "failed", deadReason: "http_410" });
  });

  it("uses the endpoint's own schedule first", () => {
    const d = delivery({ endpoint: { retrySchedule: [3600] } as ClaimedDelivery["endpoint"] });
    expect(next(d, answer(500)).nextAttemptAt!.getTime() - now.getTime()).toBeGreaterThan(2_800_000);
  });

  it("waits at least Retry-After on 429 and 503, and says so; other answers ignore it", () => {
    const d = next(delivery(), answer(429, { "retry-after": "3600" }));
    const delay = d.nextAttemptAt!.getTime() - now.getTime();
    expect(delay).toBeGreaterThanOrEqual(3600_000);
    expect(delay).toBeLessThanOrEqual(1.2 * 3600_000);
    expect(d.retryAfterMs).toBe(3600_000);
    expect(next(delivery(), answer(503, { "retry-after": "2" })).retryAfterMs).toBe(2_000);
    const other = next(delivery(), answer(500, { "retry-after": "3600" }));
    expect(other.retryAfterMs).toBeUndefined();
    expect(other.nextAttemptAt!.getTime() - now.getTime()).toBeLessThan(3600_000);
  });

  describe("manual attempts", () => {
    const manual = (over: Partial<ClaimedDelivery>) => delivery({ trigger: "manual", ...over });

    it("leave a pending delivery's schedule alone when they fail", () => {
      const d = manual({ prevStatus: "pending", scheduledAttempts: 1 });
      expect(next(d, answer(500))).toEqual({
        status: "pending",
        nextAttemptAt: d.prevNextAt,
        deadReason: null,
        deadAt: null,
      });
    });

    it("keep a dead letter dead (its retention restarts), and a delivered delivery delivered", () => {
      expect(next(manual({ prevStatus: "failed", prevDeadReason: "http_404" }), answer(500))).toMatchObject({
        status: "failed",
        deadReason: "http_404",
        deadAt: now,
      });
      expect(next(manual({ prevStatus: "succeeded" }), answer(500))).toMatchObject({ status: "succeeded" });
    });

    it("return a pending delivery with no scheduled attempt left to the dead letter", () => {
      expect(next(manual({ prevStatus: "pending", scheduledAttempts: 3 }), answer(500))).toMatchObject({
        status: "failed",
        deadReason: "exhausted",
      });
    });

    it("succeed like any attempt, also from the dead letter", () => {
      expect(next(manual({ prevStatus: "failed", prevDeadReason: "exhausted" }), answer(200))).toMatchObject({
        status: "succeeded",
        deadReason: null,
      });
    });
  });
});
