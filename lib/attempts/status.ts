import type { AttemptStatus, DeliveryStatus } from "../generated/prisma/client";

// Svix's MessageStatus: 0 success, 1 pending, 2 fail, 3 sending.
export const MESSAGE_STATUS = { success: 0, pending: 1, fail: 2, sending: 3 } as const;
export type MessageStatusText = keyof typeof MESSAGE_STATUS;

export function deliveryStatusText(s: DeliveryStatus): MessageStatusText {
  switch (s) {
    case "succeeded":
      return "success";
    case "pending":
      return "pending";
    case "sending":
      return "sending";
    case "failed":
    case "canceled":
      return "fail";
  }
}

export function attemptStatusText(s: AttemptStatus): MessageStatusText {
  return s === "success" ? "success" : "fail";
}

/** Delivery statuses that a MessageStatus filter selects. */
export function deliveryStatusesFor(status: number): DeliveryStatus[] {
  const map: Record<number, DeliveryStatus[]> = { 0: ["succeeded"], 1: ["pending"], 2: ["failed", "canceled"], 3: ["sending"] };
  return map[status] ?? [];
}
