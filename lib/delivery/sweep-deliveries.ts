import type { Redis } from "ioredis";
import { db } from "../db";
import { enqueueDeliveries } from "./enqueue-deliveries";

// PostgreSQL is the source of truth; Redis only holds the timers. The sweeper finds deliveries
// that should be moving but have no job in Redis and enqueues them again:
// - pending and overdue: the process died between commit and enqueue, Redis lost its data
//   (restart without persistence, flush, eviction), or a retry could not be scheduled;
// - sending with an expired lease: the worker died mid-attempt and its job is gone too (the
//   claim then records the interrupted attempt and tries again).
// Job ids are delivery ids, so enqueuing one that exists after all is a no-op. It walks the
// overdue deliveries with a cursor, a bounded number per run, so a large backlog of parked
// deliveries (which are overdue by design but do have their job) never starves the rest.

const PAGE = 1_000;

export type SweepState = { cursors: Partial<Record<"pending" | "sending", { at: Date; id: string }>> };

export function newSweepState(): SweepState {
  return { cursors: {} };
}

export async function sweepDeliveries(
  deps: { redis: Redis; prefix: string },
  opts: { graceMs: number; maxPerRun: number },
  state: SweepState,
): Promise<{ checked: number; enqueued: number }> {
  const cutoff = new Date(Date.now() - opts.graceMs);
  let checked = 0;
  let enqueued = 0;

  // Pending rows without a time (written by hand or by older code) become due now.
  await db.$executeRaw`UPDATE delivery SET next_attempt_at = now() WHERE status = 'pending' AND next_attempt_at IS NULL`;

  for (const status of ["pending", "sending"] as const) {
    while (checked < opts.maxPerRun) {
      const cursor = state.cursors[status];
      const rows = cursor
        ? await db.$queryRaw<{ id: string; next_attempt_at: Date }[]>`
            SELECT id, next_attempt_at FROM delivery
            WHERE status = ${status}::"DeliveryStatus" AND next_attempt_at < ${cutoff}
              AND (next_attempt_at, id) > (${cursor.at}, ${cursor.id})
            ORDER BY next_attempt_at, id LIMIT ${PAGE}`
        : await db.$queryRaw<{ id: string; next_attempt_at: Date }[]>`
            SELECT id, next_attempt_at FROM delivery
            WHERE status = ${status}::"DeliveryStatus" AND next_attempt_at < ${cutoff}
            ORDER BY next_attempt_at, id LIMIT ${PAGE}`;
      checked += rows.length;
      const last = rows[rows.length - 1];
      if (rows.length > 0) {
        const exists = redisPipelineExists(deps.redis, rows.map((r) => `${deps.prefix}:deliveries:${r.id}`));
        const present = await exists;
        const missing = rows.filter((_, i) => !present[i]);
        if (missing.length > 0 && (await enqueueDeliveries(missing.map((r) => ({ id: r.id }))))) enqueued += missing.length;
      }
      if (!last || rows.length < PAGE) {
        delete state.cursors[status]; // reached the end: start from the oldest next time
        break;
      }
      state.cursors[status] = { at: last.next_attempt_at, id: last.id };
    }
  }
  return { checked, enqueued };
}

async function redisPipelineExists(redis: Redis, keys: string[]): Promise<boolean[]> {
  const p = redis.pipeline();
  for (const k of keys) p.exists(k);
  const res = (await p.exec()) ?? [];
  return res.map(([err, n]) => !err && Number(n) > 0);
}
