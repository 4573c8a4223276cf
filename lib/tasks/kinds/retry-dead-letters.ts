import { db } from "../../db";
import type { Task } from "../../generated/prisma/client";
import { deadLetterWhere } from "../dead-letters";
import type { DeliveryFilter } from "../delivery-filter";
import { TaskError, type TaskKindRunner } from "../task-context";

// recover and bulk_retry: move dead-lettered deliveries back to pending, batch by batch (a
// compare-and-set on status, so a delivery that changed meanwhile is left alone), then enqueue
// them through the delivery engine. A retry is a new attempt of the same delivery (same webhook-id).

function filterOf(task: Task): DeliveryFilter {
  if (!task.applicationId) throw new TaskError("invalid_task", "task has no application");
  if (task.kind === "recover") {
    const p = task.params as { since: string; until: string };
    return {
      appId: task.applicationId,
      endpointId: task.endpointId,
      since: p.since,
      until: p.until,
      statusCode: null,
      statusCodeClass: null,
      eventTypes: [],
    };
  }
  return task.params as DeliveryFilter;
}

export const retryDeadLetters: TaskKindRunner = {
  async total(task) {
    const [row] = await db.$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM delivery d WHERE ${deadLetterWhere(filterOf(task), null)}`;
    return row?.n ?? 0;
  },

  async step(ctx) {
    const f = filterOf(ctx.task);
    await ctx.deliveries.waitForRoom();
    if (ctx.interrupted()) return "more"; // the runner ends or pauses the task
    const { cursor } = ctx.progress();
    const rows = await db.$queryRaw<{ id: string }[]>`
      SELECT d.id FROM delivery d WHERE ${deadLetterWhere(f, cursor)} ORDER BY d.id LIMIT ${ctx.opts.batchSize}`;
    const last = rows[rows.length - 1];
    if (!last) return "done";
    const ids = rows.map((r) => r.id);
    // An explicit retry says "the endpoint is back": an open circuit of an endpoint it sends to
    // lets its first delivery through as the probe now instead of after the cool-down
    // (circuit_probe_at, lib/delivery/circuit-breaker.ts), in the same transaction.
    const retried = await ctx.commit(
      (tx) => tx.$queryRaw<{ id: string }[]>`
        WITH moved AS (
          UPDATE delivery SET status = 'pending', next_attempt_at = now(), dead_reason = NULL, dead_at = NULL, updated_at = now()
          WHERE id = ANY(${ids}::text[]) AND status = 'failed'
          RETURNING id, endpoint_id
        ), probe AS (
          UPDATE endpoint SET circuit_probe_at = now()
          WHERE id IN (SELECT endpoint_id FROM moved) AND circuit_state <> 'closed' AND circuit_probe_at IS NULL
        )
        SELECT id FROM moved`,
      (moved, before) => ({
        cursor: last.id,
        added: ids.length,
        result: {
          retried: (before.result.retried ?? 0) + moved.length,
          skipped: (before.result.skipped ?? 0) + ids.length - moved.length,
        },
      }),
    );
    // After the commit: if this fails or the process dies here, the deliveries are pending and due,
    // and the delivery engine's sweeper enqueues them. As scheduled jobs they pass the same gates as
    // any delivery (per-endpoint concurrency, throttle, circuit breaker); one that fails again goes
    // back to the dead letter once its retry schedule is used up.
    await ctx.deliveries.send(retried.map((r) => r.id));
    return "more";
  },
};
