import { Gauge, type Registry } from "prom-client";
import type { Queue } from "bullmq";
import type { RedisClient } from "../queue/connection";
import { db } from "../db";
import { logger } from "../logger";
import { createEndpointGate } from "../delivery/endpoint-gate";
import { readClusterCounts } from "./cluster-counters";

// Gauges read when Prometheus scrapes, shared by the web and worker /metrics: queue depth,
// endpoints by state and circuit, deliveries parked and in flight, dead letters, and the
// cluster-wide delivery outcomes.

async function safely(what: string, fn: () => Promise<void>) {
  try {
    await fn();
  } catch (err) {
    logger.warn({ err, what }, "metrics collection failed");
  }
}

export function registerSharedCollectors(registry: Registry, deps: { queues: Queue[]; redis: RedisClient; prefix: string }) {
  const registers = [registry];
  new Gauge({
    name: "herald_queue_jobs",
    help: "Jobs in the delivery queues by queue and state (delayed: scheduled retries and throttled deliveries)",
    labelNames: ["queue", "state"] as const,
    registers,
    async collect() {
      await safely("queue", async () => {
        for (const q of deps.queues) {
          const counts = await q.getJobCounts("waiting", "delayed", "active", "prioritized", "paused");
          for (const [state, n] of Object.entries(counts)) this.set({ queue: q.name, state }, n);
        }
      });
    },
  });
  new Gauge({
    name: "herald_endpoints",
    help: "Endpoints by state (active, paused, disabled) and circuit breaker state (closed, open, half_open)",
    labelNames: ["state", "circuit"] as const,
    registers,
    async collect() {
      await safely("endpoints", async () => {
        const rows = await db.$queryRaw<{ state: string; circuit: string; n: number }[]>`
          SELECT state::text, circuit_state::text AS circuit, count(*)::int AS n FROM endpoint GROUP BY 1, 2`;
        this.reset();
        for (const r of rows) this.set({ state: r.state, circuit: r.circuit }, r.n);
      });
    },
  });
  new Gauge({
    name: "herald_deliveries",
    help: "Deliveries currently sending (in flight, cluster-wide) and dead-lettered (failed)",
    labelNames: ["status"] as const,
    registers,
    async collect() {
      await safely("deliveries", async () => {
        const rows = await db.$queryRaw<{ status: string; n: number }[]>`
          SELECT status::text, count(*)::int AS n FROM delivery WHERE status IN ('sending', 'failed') GROUP BY 1`;
        this.set({ status: "sending" }, rows.find((r) => r.status === "sending")?.n ?? 0);
        this.set({ status: "failed" }, rows.find((r) => r.status === "failed")?.n ?? 0);
      });
    },
  });
  const gate = createEndpointGate(deps.redis, deps.prefix, 0);
  new Gauge({
    name: "herald_deliveries_parked",
    help: "Deliveries waiting in Redis for their endpoint (in-flight cap reached or circuit open)",
    registers,
    async collect() {
      await safely("parked", async () => this.set(await gate.parkedCount(await gate.parkedEndpoints())));
    },
  });
  new Gauge({
    name: "herald_cluster_deliveries_total",
    help: "Delivery outcomes summed over all workers (see herald_deliveries_total for one worker)",
    labelNames: ["outcome"] as const,
    registers,
    async collect() {
      await safely("cluster counters", async () => {
        for (const [outcome, n] of Object.entries(await readClusterCounts(deps.redis, deps.prefix)))
          this.set({ outcome }, n);
      });
    },
  });
}
