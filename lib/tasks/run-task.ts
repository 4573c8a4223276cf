import { setTimeout as sleep } from "node:timers/promises";
import { db } from "../db";
import type { Task, TaskKind } from "../generated/prisma/client";
import { logger } from "../logger";
import { enqueue } from "../queue/catalog";
import { writeExport } from "../exports/write-export";
import { retryDeadLetters } from "./kinds/retry-dead-letters";
import { replay } from "./kinds/replay";
import { createDeliveryFlow } from "./delivery-flow";
import type { TaskResult } from "./serialize-task";
import {
  LeaseLost,
  TaskError,
  type KindContext,
  type Progress,
  type RunOptions,
  type TaskKindRunner,
} from "./task-context";
import { transitionTask } from "./task-state";

// Runs one task on the worker: claims it (pending → running, or takes over a running task whose
// worker's lease expired), renews the lease while it works, processes batches after the saved
// cursor, and ends it (completed | failed | cancelled). On shutdown it stops after the current
// batch and gives the lease back, leaving the task running and resumable from its cursor.

const KINDS: Record<TaskKind, TaskKindRunner> = {
  recover: retryDeadLetters,
  bulk_retry: retryDeadLetters,
  replay,
  export: writeExport,
};

/**
 * A task whose runs keep dying (it takes the worker down) fails instead of looping forever.
 * `runs` counts starts minus graceful hand-overs (SIGTERM), so deploys do not count.
 */
export const MAX_RUNS = 5;
/** Transient errors (database hiccups) are retried this many times per batch before failing. */
const STEP_RETRIES = 3;

export type RunOutcome = "completed" | "failed" | "cancelled" | "released" | "skipped";

async function claim(taskId: string, opts: RunOptions): Promise<Task | null> {
  const lease = { leaseOwner: opts.workerId, leaseUntil: new Date(Date.now() + opts.leaseMs), runs: { increment: 1 } };
  const started = await transitionTask(taskId, "pending", "running", lease);
  if (started) return started;
  const { count } = await db.task.updateMany({
    where: { id: taskId, status: "running", OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date() } }] },
    data: lease,
  });
  return count === 1 ? db.task.findUnique({ where: { id: taskId } }) : null;
}

export async function runTask(taskId: string, opts: RunOptions): Promise<RunOutcome> {
  const task = await claim(taskId, opts);
  if (!task) return "skipped";
  const log = { taskId, kind: task.kind, run: task.runs };
  logger.info({ ...log, cursor: task.cursor }, task.runs > 1 ? "resuming task" : "starting task");

  const state = { cancel: task.cancelRequestedAt !== null, lost: false };
  const heartbeatMs = Math.min(1_000, Math.floor(opts.leaseMs / 3));
  let beat: Promise<void> = Promise.resolve();
  const heartbeat = setInterval(() => {
    beat = db.task
      .updateMany({
        where: { id: taskId, status: "running", leaseOwner: opts.workerId },
        data: { leaseUntil: new Date(Date.now() + opts.leaseMs) },
      })
      .then(async ({ count }) => {
        if (count === 0) state.lost = true;
        else
          state.cancel ||=
            (await db.task.findUnique({ where: { id: taskId }, select: { cancelRequestedAt: true } }))
              ?.cancelRequestedAt != null;
      })
      .catch((err: unknown) => logger.warn({ ...log, err }, "task heartbeat failed"));
  }, heartbeatMs);
  /** Stops renewing the lease; resolves once no renewal is in flight (it could land after a release). */
  const stopHeartbeat = async () => {
    clearInterval(heartbeat);
    await beat;
  };

  let progress: Progress = { cursor: task.cursor, done: task.doneCount, result: (task.result ?? {}) as TaskResult };
  const interrupted = () => state.cancel || state.lost || opts.shutdown.aborted;

  const ctx: KindContext = {
    task,
    opts,
    progress: () => progress,
    interrupted,
    async commit(write, next) {
      const before = progress;
      let after: Progress | undefined;
      const value = await db.$transaction(async (tx) => {
        const v = await write(tx);
        const n = next(v, before);
        after = { cursor: n.cursor, done: before.done + n.added, result: n.result };
        const { count } = await tx.task.updateMany({
          where: { id: taskId, status: "running", leaseOwner: opts.workerId, cursor: before.cursor },
          data: { cursor: after.cursor, doneCount: after.done, result: after.result },
        });
        if (count !== 1) throw new LeaseLost(taskId);
        return v;
      });
      progress = after!;
      return value;
    },
    deliveries: createDeliveryFlow({ maxInFlight: opts.maxInFlight, maxQueueDepth: opts.maxQueueDepth, interrupted }),
  };

  try {
    if (task.runs > MAX_RUNS)
      throw new TaskError(
        "worker_crashed",
        `The task was started ${task.runs - 1} times and its worker stopped each time; giving up`,
      );
    if (task.totalCount === null) {
      // Counted once: progress is done/total with a fixed total, so it never goes backwards.
      const total = await KINDS[task.kind].total(task);
      await db.task.updateMany({ where: { id: taskId, leaseOwner: opts.workerId }, data: { totalCount: total } });
      task.totalCount = total;
    }

    for (;;) {
      if (state.lost) return "released";
      if (state.cancel) {
        // After the last batch this run committed: nothing it queued slips through.
        await KINDS[task.kind].cancelled?.(task.id);
        return await finish(task, "cancelled", {}, opts);
      }
      if (opts.shutdown.aborted) {
        await stopHeartbeat();
        // Lease given back, and this run not counted: only runs that died count towards MAX_RUNS.
        await db.task.updateMany({
          where: { id: taskId, leaseOwner: opts.workerId },
          data: { leaseUntil: new Date(), runs: { decrement: 1 } },
        });
        logger.info({ ...log, cursor: progress.cursor }, "worker stopping; task left resumable");
        return "released";
      }
      const outcome = await stepWithRetries(KINDS[task.kind], ctx, log);
      if (outcome === "done") {
        // Completed only if nobody asked to cancel meanwhile: a cancel that lands after the last
        // batch (a replay's deliveries still going out) ends the task cancelled, like any other.
        const ended = await finish(task, "completed", {}, opts, { cancelRequestedAt: null });
        if (ended !== "released") return ended;
        state.cancel = await cancelRequested(taskId, opts.workerId);
        if (!state.cancel) return "released";
      }
      if (opts.pauseMs > 0) await sleep(opts.pauseMs, undefined, { signal: opts.shutdown }).catch(() => undefined);
    }
  } catch (e) {
    if (e instanceof LeaseLost) {
      logger.warn(log, "task lease lost; another run continues it");
      return "released";
    }
    const code = e instanceof TaskError ? e.code : "internal_error";
    const message = e instanceof TaskError ? e.message : "The task failed unexpectedly; see the worker log";
    if (!(e instanceof TaskError)) logger.error({ ...log, err: e }, "task failed");
    return await finish(task, "failed", { errorCode: code, errorMessage: message }, opts);
  } finally {
    clearInterval(heartbeat);
  }
}

async function stepWithRetries(kind: TaskKindRunner, ctx: KindContext, log: Record<string, unknown>) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await kind.step(ctx);
    } catch (e) {
      if (e instanceof TaskError || e instanceof LeaseLost || attempt > STEP_RETRIES) throw e;
      logger.warn({ ...log, err: e, attempt }, "task batch failed; retrying");
      await sleep(500 * 2 ** attempt);
    }
  }
}

/** Whether this worker still runs the task and a cancel was asked for. */
async function cancelRequested(taskId: string, workerId: string): Promise<boolean> {
  const t = await db.task.findUnique({ where: { id: taskId }, select: { status: true, leaseOwner: true, cancelRequestedAt: true } });
  return t?.status === "running" && t.leaseOwner === workerId && t.cancelRequestedAt !== null;
}

async function finish(
  task: Task,
  to: "completed" | "failed" | "cancelled",
  data: { errorCode?: string; errorMessage?: string },
  opts: RunOptions,
  only: { cancelRequestedAt?: null } = {},
): Promise<RunOutcome> {
  const done = await transitionTask(task.id, "running", to, data, { leaseOwner: opts.workerId, where: only });
  if (!done) return "released";
  logger.info({ taskId: task.id, kind: task.kind, status: to, done: done.doneCount }, "task finished");
  await enqueueNotification(task.id);
  return to;
}

export async function enqueueNotification(taskId: string) {
  try {
    await enqueue("task.notify", [
      {
        data: { taskId },
        opts: { jobId: `${taskId}-notify`, attempts: 6, backoff: { type: "exponential", delay: 2_000 } },
      },
    ]);
  } catch (err) {
    // The sweeper notices finished tasks that were not notified.
    logger.warn({ err, taskId }, "could not enqueue the task's end notifications; the sweeper will");
  }
}
