import { setTimeout as sleep } from "node:timers/promises";
import { LOCAL_WAIT_MS } from "../../delivery/local-slots";
import { query } from "../../sql";
import type { Scope } from "../../auth/principal";
import { findTask } from "../query-tasks";

// The deliveries a range replay made (its messages carry task_id): what its progress counts
// (delivered, not merely queued) and what cancelling it stops. Both read through the
// message(task_id) index and the deliveries' (message_id, endpoint_id) key.

/**
 * Cancels the replay's deliveries that were not attempted yet (an attempt in flight, or a retry
 * of one already attempted, goes on: the receiver has seen that event) and records in the task's
 * result how many of its deliveries are cancelled in all. One statement, so running it again
 * (the API's cancel, then the worker's after its last batch) only adds what is new.
 */
const CANCEL_SQL = `WITH c AS (
     UPDATE delivery d SET status = 'canceled', next_attempt_at = NULL, updated_at = now()
     FROM message m
     WHERE m.task_id = $1 AND d.message_id = m.id AND d.status = 'pending' AND d.attempt_count = 0
     RETURNING d.id
   ), total AS (
     SELECT count(*)::int AS n FROM delivery d JOIN message m ON d.message_id = m.id
     WHERE m.task_id = $1 AND d.status = 'canceled'
   )
   UPDATE task SET result = coalesce(result, '{}'::jsonb) || jsonb_build_object('cancelled', (SELECT n FROM total) + (SELECT count(*) FROM c)::int)
   WHERE id = $1
   RETURNING (result->>'cancelled')::int AS cancelled`;

export async function cancelReplayDeliveries(taskId: string): Promise<number> {
  const [row] = await query<{ cancelled: number }>("herald_cancel_replay_deliveries", CANCEL_SQL, [taskId]);
  return row?.cancelled ?? 0;
}

/**
 * A delivery job that claimed its delivery just before the cancel and found its endpoint at the
 * in-flight cap waits in its worker for up to 2 × LOCAL_WAIT_MS, then is parked and its
 * delivery goes back to pending: it must not be sent later. So the worker's cancel runs twice,
 * the second time once that window has passed.
 */
export const LOCAL_CLAIM_WINDOW_MS = 2 * LOCAL_WAIT_MS + 1_000;

export async function cancelReplayAfterLastBatch(taskId: string): Promise<void> {
  await cancelReplayDeliveries(taskId);
  await sleep(LOCAL_CLAIM_WINDOW_MS);
  await cancelReplayDeliveries(taskId);
}

const COUNT_SQL = `SELECT count(*)::int AS total,
     count(*) FILTER (WHERE d.status = 'succeeded')::int AS delivered,
     count(*) FILTER (WHERE d.status = 'failed')::int AS failed,
     count(*) FILTER (WHERE d.status = 'canceled')::int AS cancelled,
     count(*) FILTER (WHERE d.status IN ('pending', 'sending') AND d.attempt_count > 0)::int AS retrying,
     count(*) FILTER (WHERE d.status = 'sending' AND d.attempt_count = 0)::int AS sending,
     count(*) FILTER (WHERE d.status = 'pending' AND d.attempt_count = 0)::int AS waiting
   FROM delivery d JOIN message m ON d.message_id = m.id
   WHERE m.task_id = $1`;

export type ReplayDeliveryCounts = {
  /** Deliveries the replay has queued so far. */
  total: number;
  /** Got a 2xx. */
  delivered: number;
  /** Dead-lettered. */
  failed: number;
  cancelled: number;
  /** Attempted, failed, another attempt scheduled. */
  retrying: number;
  /** First attempt claimed: on its way, or held for a free slot (past cancelling). */
  sending: number;
  /** Not attempted yet: what a cancel stops. */
  waiting: number;
};

/**
 * GET /api/v1/tasks/{id}/deliveries: where the deliveries of a replay task stand. Other kinds
 * (export, recover, bulk retry) create no deliveries of their own, so they count zero: an
 * answer, not an error, for any task the caller can see.
 */
export async function replayDeliveryCounts(scope: Scope, taskId: string): Promise<ReplayDeliveryCounts & { task_id: string }> {
  const task = await findTask(scope, taskId);
  if (task.kind !== "replay") return { task_id: task.id, total: 0, delivered: 0, failed: 0, cancelled: 0, retrying: 0, sending: 0, waiting: 0 };
  const [row] = await query<ReplayDeliveryCounts>("herald_replay_delivery_counts", COUNT_SQL, [task.id]);
  return { task_id: task.id, ...row! };
}
