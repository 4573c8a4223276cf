import type { Stoppable } from "./index";

// Task consumers: built by the async-tasks issue.
export function startTaskWorkers(): Promise<Stoppable> {
  return Promise.resolve({ close: () => Promise.resolve() });
}
