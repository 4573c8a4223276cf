import { collectDefaultMetrics, Registry } from "prom-client";
import { keyPrefix, redis } from "../queue/connection";
import { catalog, queue } from "../queue/catalog";
import { registerSharedCollectors } from "./shared-collectors";
import { processWide } from "../process-wide";

// The web process's /metrics: its own process metrics plus the cluster view read at scrape time
// (queue depth, endpoint and circuit states, deliveries in flight and dead-lettered, parked
// deliveries, cluster-wide delivery outcomes). Per-attempt latency histograms live in the worker.

export function webMetrics(): Registry {
  return processWide("heraldWebMetrics", () => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    registerSharedCollectors(registry, {
      queues: [queue(catalog.deliver.queue), queue(catalog["deliver.resume"].queue)],
      redis: redis(),
      prefix: keyPrefix(),
    });
    return registry;
  });
}
