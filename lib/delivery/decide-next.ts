import type { ClaimedDelivery } from "./claim-deliveries";
import type { Verdict } from "./classify-response";
import type { AttemptResult } from "./http-client";
import type { DeliveryNext } from "./record-attempts";
import { applyRetryAfter, parseRetryAfter, resolveSchedule, scheduledDelayMs } from "./retry-schedule";

// The delivery's next state after an attempt, from the recorded answer.
//
// Scheduled attempts follow the contract: success stops; 410 and non-retryable 4xx dead-letter at
// once; everything else retries on the schedule until it is exhausted (dead letter "exhausted").
//
// Manual attempts (resend) are extra tries of the same delivery, outside the schedule: a success
// marks the delivery succeeded (also from the dead letter); a failure leaves it as it was — a
// pending delivery keeps its next scheduled attempt, a dead-lettered one stays dead (its
// retention restarts), a delivered one stays delivered.

export function decideNext(
  d: ClaimedDelivery,
  verdict: Verdict,
  result: AttemptResult,
  platformSchedule: number[] | undefined,
  now: Date,
): DeliveryNext {
  if (verdict.kind === "success")
    return { status: "succeeded", nextAttemptAt: null, deadReason: null, deadAt: null };

  const schedule = resolveSchedule(d.endpoint.retrySchedule, d.environmentRetrySchedule, platformSchedule);
  const dead = (reason: string): DeliveryNext => ({ status: "failed", nextAttemptAt: null, deadReason: reason, deadAt: now });

  if (d.trigger === "manual") {
    const deadAgain = dead(d.prevDeadReason ?? "exhausted");
    switch (d.prevStatus) {
      case "pending":
      case "sending":
        // A pending delivery with no scheduled attempt left (e.g. put back by a recover task)
        // returns to the dead letter rather than getting one more scheduled try.
        if (d.scheduledAttempts > schedule.length) return deadAgain;
        return {
          status: "pending",
          nextAttemptAt: d.prevNextAt && d.prevStatus === "pending" ? d.prevNextAt : now,
          deadReason: null,
          deadAt: null,
        };
      case "failed":
        return deadAgain;
      case "succeeded":
        return { status: "succeeded", nextAttemptAt: null, deadReason: null, deadAt: null };
      case "canceled":
        return { status: "canceled", nextAttemptAt: null, deadReason: d.prevDeadReason, deadAt: d.prevDeadAt };
    }
  }

  if (verdict.kind === "gone") return dead("http_410");
  if (verdict.kind === "dead") return dead(verdict.reason);

  // This attempt is scheduled attempt number scheduledAttempts + 1 (interrupted ones included:
  // they may have reached the endpoint, so they use up their place in the schedule).
  const scheduled = scheduledDelayMs(schedule, d.scheduledAttempts + 1);
  if (scheduled === null) return dead("exhausted");
  const { delayMs, honouredMs } = verdict.honourRetryAfter
    ? applyRetryAfter(scheduled, parseRetryAfter(result.headers?.["retry-after"], now.getTime()))
    : { delayMs: scheduled, honouredMs: null };
  return {
    status: "pending",
    nextAttemptAt: new Date(now.getTime() + delayMs),
    deadReason: null,
    deadAt: null,
    ...(honouredMs !== null ? { retryAfterMs: honouredMs } : {}),
  };
}
