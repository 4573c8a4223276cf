import type { AttemptStatus, DeliveryStatus } from "../generated/prisma/client";

// Svix's MessageStatus: 0 success, 1 pending, 2 fail, 3 sending, and 4 canceled for clients that
// ask for it with `expanded_statuses=true` (the 1.x SDKs always do); otherwise canceled reads as
// fail, which is the truthful one of the original four (it was not delivered).
export const MESSAGE_STATUS = { success: 0, pending: 1, fail: 2, sending: 3, canceled: 4 } as const;
export type MessageStatusText = keyof typeof MESSAGE_STATUS;

export function deliveryStatusText(s: DeliveryStatus, expanded = false): MessageStatusText {
  switch (s) {
    case "succeeded":
      return "success";
    case "pending":
      return "pending";
    case "sending":
      return "sending";
    case "failed":
      return "fail";
    case "canceled":
      return expanded ? "canceled" : "fail";
  }
}

export function attemptStatusText(s: AttemptStatus): MessageStatusText {
  return s === "success" ? "success" : "fail";
}

/** Delivery statuses that a MessageStatus filter selects. */
export function deliveryStatusesFor(status: number, expanded = false): DeliveryStatus[] {
  const map: Record<number, DeliveryStatus[]> = {
    0: ["succeeded"],
    1: ["pending"],
    2: expanded ? ["failed"] : ["failed", "canceled"],
    3: ["sending"],
    4: ["canceled"],
  };
  return map[status] ?? [];
}
