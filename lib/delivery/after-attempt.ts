import { logger } from "../logger";
import { setEndpointState } from "../endpoints/set-endpoint-state";
import type { DeliveryMetrics } from "../metrics/delivery-metrics";
import { FAILING_AFTER_ATTEMPTS } from "../operational/event-types";
import { notifyAttemptEvent } from "../operational/operational-events";
import { changeEndpointNotice } from "../notifications/endpoint-notices";
import type { ClaimedDelivery } from "./claim-deliveries";
import type { Verdict } from "./classify-response";
import type { AttemptResult } from "./http-client";
import type { DeliveryNext, RecordOutcome } from "./record-attempts";

// What follows a recorded attempt: metrics, endpoint health (410 disables at once; five days
// without success and enough failures disable too), operational webhooks, the members' endpoint
// alerts (failing: the circuit opened or message.attempt.failing was sent; recovered: a success
// while they were told it fails), and waking the endpoint's parked deliveries when its circuit is
// closed.

export const GONE_REASON = "gone: the endpoint answered 410 Gone";
export const FAILING_REASON = "failing: no successful delivery for too long";

export type AttemptOutcome = {
  delivery: ClaimedDelivery;
  verdict: Verdict;
  next: DeliveryNext;
  result: AttemptResult;
  attemptId: string;
  attemptedAt: Date;
  outcome: RecordOutcome;
  /** Deliveries parked for the endpoint when its slot was released. */
  parked: number;
};

export type AfterAttemptDeps = {
  metrics: DeliveryMetrics;
  unparkAndResume(endpointId: string): Promise<void>;
  autoDisableAfterMs: number;
  autoDisableMinFailures: number;
};

export async function afterAttempt(a: AttemptOutcome, deps: AfterAttemptDeps): Promise<void> {
  const { delivery: d, verdict, next, result, outcome } = a;
  const success = verdict.kind === "success";
  const { metrics } = deps;
  metrics.attempts.inc({
    result: success ? "success" : "fail",
    error_class: result.errorClass ?? (success ? "none" : "http_status"),
  });
  metrics.attemptDuration.observe({ result: success ? "success" : "fail" }, result.durationMs / 1000);
  if (outcome.applied) {
    const o = success
      ? "succeeded"
      : next.status === "failed" && d.prevStatus !== "failed"
        ? "dead_letter"
        : next.status === "pending"
          ? "retry_scheduled"
          : "unchanged";
    metrics.delivered(d.trigger === "manual" && !success ? "manual_failed" : o);
  }

  try {
    // Endpoint health.
    const health = outcome.endpoint;
    if (verdict.kind === "gone") await setEndpointState(d.endpointId, "disabled", GONE_REASON);
    else if (
      !success &&
      health?.state === "active" &&
      health.failingSince &&
      Date.now() - health.failingSince.getTime() >= deps.autoDisableAfterMs &&
      health.consecutiveFailures >= deps.autoDisableMinFailures
    )
      await setEndpointState(d.endpointId, "disabled", FAILING_REASON);

    // Operational webhooks (never about the operational endpoints themselves).
    if (outcome.applied && !d.app.internal) {
      const event = {
        environmentId: d.environmentId,
        applicationId: d.applicationId,
        appUid: d.app.uid,
        endpointId: d.endpointId,
        messageId: d.messageId,
        msgEventId: d.message.eventId,
        attempt: { id: a.attemptId, responseStatus: result.status, at: a.attemptedAt },
      };
      // failing: the 4th scheduled attempt that failed with an outcome (interrupted ones do not
      // count); recovered: a success after failing was sent, or out of the dead letter.
      if (success && (d.finishedScheduled >= FAILING_AFTER_ATTEMPTS || d.prevStatus === "failed"))
        await notifyAttemptEvent("message.attempt.recovered", event);
      const failingSent = !success && d.trigger === "scheduled" && d.finishedScheduled + 1 === FAILING_AFTER_ATTEMPTS;
      if (!success && d.trigger === "scheduled") {
        if (failingSent) await notifyAttemptEvent("message.attempt.failing", event);
        if (next.status === "failed") await notifyAttemptEvent("message.attempt.exhausted", event);
      }

      // Members' alerts: only on a change of what they were told (a compare-and-set on the
      // endpoint row, so one email per change however many workers see it). The health row
      // carries the notice state, so a healthy endpoint costs no extra query.
      if (health && !success && health.noticeState === "ok" && health.state === "active" && (health.circuitState !== "closed" || failingSent))
        await changeEndpointNotice(d.endpointId, "failing");
      if (health && success && health.noticeState === "failing") await changeEndpointNotice(d.endpointId, "recovered");
    }

    // Parked deliveries flow again once the circuit is closed.
    const circuit = health?.circuitState ?? (success ? "closed" : d.endpoint.circuitState);
    if (a.parked > 0 && circuit === "closed") await deps.unparkAndResume(d.endpointId);
  } catch (err) {
    logger.warn({ err, deliveryId: d.id }, "after-attempt step failed (the attempt itself is recorded)");
  }
}
