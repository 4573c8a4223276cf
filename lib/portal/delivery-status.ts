import type { DeliveryStatus, Prisma } from "../generated/prisma/client";

// The portal's delivery statuses, named for the people reading the logs:
// - succeeded: an attempt got a 2xx;
// - failed: the last attempt failed and another is scheduled (the delivery is still retrying);
// - pending: not attempted yet (or the first attempt is in flight);
// - dead_lettered: Herald gave up (retries exhausted or a non-retryable answer);
// - canceled: stopped before it was delivered (e.g. a cancelled task or a deleted message).

export const LOG_STATUSES = ["succeeded", "failed", "pending", "dead_lettered", "canceled"] as const;
export type LogStatus = (typeof LOG_STATUSES)[number];

export function logStatus(d: { status: DeliveryStatus; attemptCount: number }): LogStatus {
  switch (d.status) {
    case "succeeded":
      return "succeeded";
    case "failed":
      return "dead_lettered";
    case "canceled":
      return "canceled";
    case "pending":
    case "sending":
      return d.attemptCount > 0 ? "failed" : "pending";
  }
}

/**
 * The where-fragments that select a status, one per stored status value, so each can be read
 * through the (…, status, id) indexes in id order and the results merged (keyset pagination).
 */
export function statusBranches(status: LogStatus): Prisma.DeliveryWhereInput[] {
  switch (status) {
    case "succeeded":
      return [{ status: "succeeded" }];
    case "dead_lettered":
      return [{ status: "failed" }];
    case "canceled":
      return [{ status: "canceled" }];
    case "failed":
      return [
        { status: "pending", attemptCount: { gt: 0 } },
        { status: "sending", attemptCount: { gt: 0 } },
      ];
    case "pending":
      return [
        { status: "pending", attemptCount: 0 },
        { status: "sending", attemptCount: 0 },
      ];
  }
}

// The same notions in SQL, for the counts that read many deliveries at once (the console's
// application list, Failures' held deliveries), over a delivery row aliased `d`.
/** Not tried yet (the log's "pending"); behind an active endpoint's open circuit, "held". */
export const untriedSql = (d: string) => `${d}.status = 'pending' AND ${d}.attempt_count = 0`;
/** Retrying after a failed attempt (the log's "failed"). */
export const retryingSql = (d: string) => `${d}.status IN ('pending', 'sending') AND ${d}.attempt_count > 0`;
/**
 * Counts of unfinished deliveries stop here: those views are polled, and an endpoint whose circuit
 * stays open for days holds every delivery sent to it since; they then say "10000+".
 */
export const UNFINISHED_COUNTED = 10_000;
