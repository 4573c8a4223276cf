import type { Stoppable } from "./index";

// Delivery consumers: built by the delivery-engine issue.
export function startDeliveryWorkers(): Promise<Stoppable> {
  return Promise.resolve({ close: () => Promise.resolve() });
}
