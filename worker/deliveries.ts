import { Worker } from "bullmq";
import { collectDefaultMetrics, Registry } from "prom-client";
import { env } from "../lib/env";
import { logger } from "../lib/logger";
import { addressPolicy } from "../lib/services";
import { createRedis, keyPrefix, queuePrefix } from "../lib/queue/connection";
import { catalog, onFailedJobs, queue, WORKER_DEFAULTS } from "../lib/queue/catalog";
import { every, takeLock } from "../lib/queue/periodic";
import { summarised } from "../lib/queue/summarise-errors";
import { outageOf } from "../lib/outage";
import { createDeliveryEngine } from "../lib/delivery/engine";
import { newSweepState, sweepDeliveries } from "../lib/delivery/sweep-deliveries";
import { cleanupExpired } from "../lib/delivery/cleanup-expired";
import { createDeliveryMetrics } from "../lib/metrics/delivery-metrics";
import { createClusterCounter } from "../lib/metrics/cluster-counters";
import { registerSharedCollectors } from "../lib/metrics/shared-collectors";
import { startMetricsServer } from "./metrics-server";
import type { Stoppable } from "./index";

// Delivery consumers: a BullMQ worker on the "deliveries" queue whose concurrency
// (HERALD_WORKER_CONCURRENCY) is far above the per-endpoint in-flight cap
// (HERALD_ENDPOINT_CONCURRENCY), one on the small "deliveries-resumed" queue (parked deliveries
// given a slot again), plus the periodic jobs: waking parked deliveries and circuit probes (1 s),
// the sweeper (HERALD_DELIVERY_SWEEP_MS) and the hourly clean-up. Periodic jobs that must run
// once per cluster take a Redis lock.

const TICK_MS = 1_000;
const CLEANUP_MS = 3600_000;
const CLEANUP_FIRST_MS = 30_000;
const SWEEP_MAX_PER_RUN = 10_000;

export async function startDeliveryWorkers(): Promise<Stoppable> {
  const cfg = env();
  const prefix = keyPrefix();
  // The gate's scripts from hundreds of concurrent jobs share writes (auto-pipelining).
  const redis = createRedis("worker", { enableAutoPipelining: true });
  const deliveries = queue(catalog.deliver.queue);

  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const cluster = createClusterCounter(redis, prefix);
  const metrics = createDeliveryMetrics(registry, cluster);
  registerSharedCollectors(registry, { queues: [deliveries, queue(catalog["deliver.resume"].queue)], redis, prefix });

  const engine = createDeliveryEngine(
    {
      endpointConcurrency: cfg.HERALD_ENDPOINT_CONCURRENCY,
      connectTimeoutMs: cfg.HERALD_CONNECT_TIMEOUT_MS,
      requestTimeoutMs: cfg.HERALD_REQUEST_TIMEOUT_MS,
      retrySchedule: cfg.HERALD_RETRY_SCHEDULE,
      circuitCooldownMs: cfg.HERALD_CIRCUIT_COOLDOWN_MS,
      autoDisableAfterMs: cfg.HERALD_AUTO_DISABLE_AFTER_HOURS * 3600_000,
      autoDisableMinFailures: cfg.HERALD_AUTO_DISABLE_MIN_FAILURES,
      policy: addressPolicy(),
      prefix,
    },
    { redis, metrics },
  );

  const workerOptions = {
    ...WORKER_DEFAULTS,
    prefix: queuePrefix(),
    lockDuration: cfg.HERALD_WORKER_STALLED_MS,
    stalledInterval: cfg.HERALD_WORKER_STALLED_MS,
    maxStalledCount: 1,
  };
  const workers = [
    new Worker(catalog.deliver.queue, (job, token) => engine.process(job, token), {
      ...workerOptions,
      connection: createRedis("worker"),
      concurrency: cfg.HERALD_WORKER_CONCURRENCY,
    }),
    // Parked deliveries given a slot again; never more than the endpoints' caps allow, so small.
    new Worker(catalog["deliver.resume"].queue, (job, token) => engine.process(job, token), {
      ...workerOptions,
      connection: createRedis("worker"),
      concurrency: Math.max(10, Math.ceil(cfg.HERALD_WORKER_CONCURRENCY / 4)),
    }),
  ];
  // BullMQ reports jobs whose keys vanished (Redis flushed, lock lost after a stall) once per job;
  // they are expected under faults and the database is unaffected, so they are summarised.
  const noisy = summarised("delivery worker error");
  // While PostgreSQL or Redis is unreachable every job fails alike: one line per burst.
  const outage = summarised("delivery jobs failing while a store is unreachable; the sweeper re-enqueues them");
  for (const w of workers) {
    w.on("error", (err) => noisy(err));
    onFailedJobs(w, "delivery", (job, err) =>
      outageOf(err) ? outage(err) : logger.warn({ err, jobId: job?.id }, "delivery job failed; the sweeper will retry it"),
    );
  }

  const sweepState = newSweepState();
  const timers = [
    every(TICK_MS, "parked/probe tick", () => engine.tick()),
    every(TICK_MS, "metrics flush", () => cluster.flush()),
    every(cfg.HERALD_DELIVERY_SWEEP_MS, "sweeper", async () => {
      if (!(await takeLock(redis, `${prefix}:lock:delivery-sweeper`, cfg.HERALD_DELIVERY_SWEEP_MS))) return;
      const { enqueued } = await sweepDeliveries(
        { redis, prefix, queuePrefix: queuePrefix() },
        { graceMs: cfg.HERALD_DELIVERY_SWEEP_MS, maxPerRun: SWEEP_MAX_PER_RUN },
        sweepState,
      );
      if (enqueued > 0) {
        metrics.swept.inc(enqueued);
        logger.info({ enqueued }, "sweeper enqueued due deliveries that were missing from Redis");
      }
    }),
    every(CLEANUP_MS, "cleanup", () => cleanup(), CLEANUP_FIRST_MS),
  ];
  async function cleanup() {
    if (!(await takeLock(redis, `${prefix}:lock:cleanup`, CLEANUP_MS / 2))) return;
    const counts = await cleanupExpired({ deadLetterRetentionDays: cfg.HERALD_DEAD_LETTER_RETENTION_DAYS });
    logger.info(counts, "expired data cleaned up");
  }

  const server = await startMetricsServer(registry, cfg.HERALD_WORKER_METRICS_PORT, cfg.HERALD_WORKER_METRICS_HOST);

  return {
    async close() {
      for (const t of timers) t.stop();
      // Stops taking jobs and waits for the ones in flight (their attempts finish and are recorded).
      await Promise.all(workers.map((w) => w.close()));
      await engine.close();
      await cluster.flush().catch(() => undefined);
      await Promise.all(timers.map((t) => t.idle()));
      server?.close();
      redis.disconnect();
    },
  };
}
