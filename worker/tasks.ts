import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { Worker } from "bullmq";
import { env } from "../lib/env";
import { addressPolicy } from "../lib/services";
import { createWebhookClient } from "../lib/delivery/http-client";
import { logger } from "../lib/logger";
import { catalog, onFailedJobs, parseJob, WORKER_DEFAULTS } from "../lib/queue/catalog";
import { createRedis, queuePrefix } from "../lib/queue/connection";
import { every } from "../lib/queue/periodic";
import { summarised } from "../lib/queue/summarise-errors";
import { deleteExpiredExports } from "../lib/exports/export-files";
import { notifyTaskFinished } from "../lib/tasks/notify-task";
import { runTask } from "../lib/tasks/run-task";
import { sweepTasks } from "../lib/tasks/sweep-tasks";
import type { Stoppable } from "./index";

// Task consumers (async tasks: recover, replay, bulk retry, export), their end-of-task webhooks,
// the task sweeper and the export-file cleanup. close() stops within a few seconds: running tasks
// stop after their current batch and stay `running` with a released lease, so the next worker's
// sweeper resumes them from their cursor.

const EXPORT_CLEANUP_MS = 10 * 60_000;

export function startTaskWorkers(): Promise<Stoppable> {
  const config = env();
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const shutdown = new AbortController();
  const opts = {
    workerId,
    batchSize: config.HERALD_TASK_BATCH_SIZE,
    pauseMs: config.HERALD_TASK_BATCH_PAUSE_MS,
    leaseMs: config.HERALD_TASK_LEASE_MS,
    maxInFlight: config.HERALD_TASK_MAX_IN_FLIGHT,
    maxQueueDepth: config.HERALD_TASK_MAX_QUEUE_DEPTH,
    shutdown: shutdown.signal,
  };

  const runner = new Worker(
    catalog["task.run"].queue,
    async (job) => {
      const { taskId } = parseJob("task.run", job);
      try {
        await runTask(taskId, opts);
      } catch (err) {
        // Never fail the job: the task row is the truth and the sweeper retries what is left.
        logger.error({ err, taskId }, "task run crashed");
      }
    },
    { ...WORKER_DEFAULTS, connection: createRedis("worker"), prefix: queuePrefix(), concurrency: config.HERALD_TASK_CONCURRENCY },
  );

  // Task callbacks go out through the deliveries' HTTP client (SSRF guard, timeouts, user agent).
  const callbacks = createWebhookClient({
    policy: addressPolicy(),
    connectTimeoutMs: config.HERALD_CONNECT_TIMEOUT_MS,
    requestTimeoutMs: config.HERALD_REQUEST_TIMEOUT_MS,
  });
  const notifier = new Worker(
    catalog["task.notify"].queue,
    async (job) => {
      const { taskId } = parseJob("task.notify", job);
      await notifyTaskFinished(taskId, { made: job.attemptsMade, max: job.opts.attempts ?? 1 }, callbacks);
    },
    { ...WORKER_DEFAULTS, connection: createRedis("worker"), prefix: queuePrefix(), concurrency: 10 },
  );

  // Redis unreachable: BullMQ reports it over and over until it reconnects; one line per burst.
  const workerError = summarised("task worker error");
  for (const w of [runner, notifier]) {
    w.on("error", (err) => workerError(err));
    onFailedJobs(w, "task");
  }

  const timers = [
    every(config.HERALD_TASK_SWEEP_MS, "task sweep", () => sweepTasks(), 0),
    every(EXPORT_CLEANUP_MS, "export cleanup", () => deleteExpiredExports(), 0),
  ];

  return Promise.resolve({
    async close() {
      shutdown.abort();
      for (const t of timers) t.stop();
      // Running tasks notice `shutdown` after their current batch and return; close() waits for that.
      await Promise.allSettled([runner.close(), notifier.close()]);
      await callbacks.close();
    },
  });
}
