import { db } from "../db";
import { logger } from "../logger";
import { enqueue } from "../queue/catalog";
import { enqueueNotification } from "./run-task";

// The task sweeper (run periodically by the worker). PostgreSQL is the source of truth, the queue
// only a doorbell: it re-rings for
// - pending tasks whose job never reached Redis (crash or Redis outage right after the insert);
// - running tasks whose worker died (lease expired): a new run continues from the saved cursor;
// - finished tasks whose end notifications were never enqueued.

/** A pending task younger than this is still on its way through the queue. */
export const PENDING_GRACE_MS = 2_000;
/** Finished tasks get this long to send their notifications before the sweeper steps in. */
export const NOTIFY_GRACE_MS = 30_000;
const SWEEP_LIMIT = 200;

export async function sweepTasks(now = new Date()) {
  const [pending, orphaned, unnotified] = await Promise.all([
    db.task.findMany({
      where: { status: "pending", createdAt: { lt: new Date(now.getTime() - PENDING_GRACE_MS) } },
      select: { id: true },
      orderBy: { id: "asc" },
      take: SWEEP_LIMIT,
    }),
    db.task.findMany({
      where: { status: "running", OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
      select: { id: true, runs: true },
      orderBy: { id: "asc" },
      take: SWEEP_LIMIT,
    }),
    db.task.findMany({
      where: {
        status: { in: ["completed", "failed", "cancelled"] },
        completedAt: { lt: new Date(now.getTime() - NOTIFY_GRACE_MS) },
        OR: [{ notifiedAt: null }, { callbackUrl: { not: null }, callbackStatus: null }],
      },
      select: { id: true },
      take: SWEEP_LIMIT,
    }),
  ]);
  // Same job id as at creation: a job still waiting in Redis is not added twice.
  if (pending.length)
    await enqueue(
      "task.run",
      pending.map((t) => ({ data: { taskId: t.id }, opts: { jobId: t.id } })),
    );
  // One resume job per run: the claim (a compare-and-set on the lease) lets exactly one run win.
  if (orphaned.length) {
    logger.info({ tasks: orphaned.map((t) => t.id) }, "resuming tasks whose worker stopped");
    await enqueue(
      "task.run",
      orphaned.map((t) => ({ data: { taskId: t.id }, opts: { jobId: `${t.id}-resume-${t.runs}` } })),
    );
  }
  for (const t of unnotified) await enqueueNotification(t.id);
  return { pending: pending.length, resumed: orphaned.length, notified: unnotified.length };
}
