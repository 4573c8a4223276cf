import { Counter, Gauge, Histogram, type Registry } from "prom-client";

// The worker's delivery metrics (Prometheus). Counters are per process; the worker also adds its
// delivery outcomes to a Redis hash so the web process can show cluster-wide totals.

export const ATTEMPT_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30];

export function createDeliveryMetrics(registry: Registry, cluster?: { add(outcome: string): void }) {
  const registers = [registry];
  const deliveries = new Counter({
    name: "herald_deliveries_total",
    help: "Delivery outcomes after an attempt: succeeded, retry_scheduled, dead_letter, manual_failed, unchanged",
    labelNames: ["outcome"] as const,
    registers,
  });
  return {
    /** Counts a delivery outcome here and in the cluster-wide totals. */
    delivered(outcome: string) {
      deliveries.inc({ outcome });
      cluster?.add(outcome);
    },
    attempts: new Counter({
      name: "herald_delivery_attempts_total",
      help: "HTTP attempts by result and error class (none, http_status, timeout, dns, refused, tls, ssrf_blocked, ...)",
      labelNames: ["result", "error_class"] as const,
      registers,
    }),
    attemptDuration: new Histogram({
      name: "herald_delivery_attempt_duration_seconds",
      help: "Duration of HTTP attempts, from connect to the response (body read up to 64 KiB)",
      labelNames: ["result"] as const,
      buckets: ATTEMPT_BUCKETS_S,
      registers,
    }),
    inFlight: new Gauge({
      name: "herald_delivery_in_flight",
      help: "HTTP attempts in flight in this worker",
      registers,
    }),
    parked: new Counter({
      name: "herald_delivery_parked_total",
      help: "Deliveries parked because their endpoint was at its in-flight cap or its circuit was open",
      registers,
    }),
    throttled: new Counter({
      name: "herald_delivery_throttled_total",
      help: "Deliveries delayed to respect their endpoint's throttle rate",
      registers,
    }),
    swept: new Counter({
      name: "herald_delivery_sweeper_enqueued_total",
      help: "Due deliveries the sweeper found missing from Redis and enqueued again",
      registers,
    }),
  };
}

export type DeliveryMetrics = ReturnType<typeof createDeliveryMetrics>;
