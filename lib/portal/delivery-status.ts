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
