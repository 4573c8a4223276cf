import { setTimeout as sleep } from "node:timers/promises";
import { db } from "../db";
import { conflict } from "../http/errors";
import type { Scope } from "../auth/principal";
import { enqueueNotification } from "./run-task";
import { findTask } from "./query-tasks";
import { cancelReplayDeliveries } from "./replay/replay-deliveries";
import { serializeTask } from "./serialize-task";
import { transitionTask } from "./task-state";

// POST /api/v1/tasks/{id}/cancel. A pending task is cancelled at once. A running one is asked to
// stop: its worker checks between batches (and at least every second), commits nothing more and
// ends it as cancelled; what it already did stays done, except that a replay's deliveries not
// attempted yet are cancelled (counted in its result). We wait up to CANCEL_WAIT_MS for that so
// the answer can say how much was done (200); otherwise 202 with the cancel recorded.

export const CANCEL_WAIT_MS = 5_000;
const POLL_MS = 100;

export async function cancelTask(
  scope: Scope,
  taskId: string,
): Promise<{ status: 200 | 202; body: ReturnType<typeof serializeTask> }> {
  let task = await findTask(scope, taskId);
  if (task.status === "completed" || task.status === "failed")
    throw conflict(`Task ${task.id} already ${task.status}; there is nothing to cancel`, "task_finished");

  if (task.status === "pending") {
    const cancelled = await transitionTask(task.id, "pending", "cancelled", { cancelRequestedAt: new Date() });
    if (cancelled) {
      await enqueueNotification(task.id);
      return { status: 200, body: serializeTask(cancelled, scope) };
    }
    task = await findTask(scope, taskId); // a worker started it meanwhile
  }

  if (task.status === "running") {
    await db.task.updateMany({
      where: { id: task.id, cancelRequestedAt: null },
      data: { cancelRequestedAt: new Date() },
    });
    // A replay's queued deliveries stop now, not when its worker next looks (the worker cancels
    // those of a batch it commits meanwhile).
    if (task.kind === "replay") await cancelReplayDeliveries(task.id);
    // No live worker (lease expired): nobody will see the request, so cancel it here.
    if (!task.leaseUntil || task.leaseUntil < new Date()) {
      const cancelled = await transitionTask(task.id, "running", "cancelled", {}, {});
      if (cancelled) await enqueueNotification(task.id);
    }
    const deadline = Date.now() + CANCEL_WAIT_MS;
    for (;;) {
      task = await findTask(scope, taskId);
      if (task.status !== "running" || Date.now() >= deadline) break;
      await sleep(POLL_MS);
    }
  }
  return { status: task.status === "running" ? 202 : 200, body: serializeTask(task, scope) };
}
