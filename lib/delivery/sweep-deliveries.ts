import type { RedisClient } from "../queue/connection";
import { db } from "../db";
import { Prisma } from "../generated/prisma/client";
import { catalog } from "../queue/catalog";
import { enqueueDeliveries } from "./enqueue-deliveries";
import { createEndpointGate, memberOf } from "./endpoint-gate";

// PostgreSQL is the source of truth; Redis only holds the timers. The sweeper finds deliveries
// that should be moving but have no job in Redis and enqueues them again:
// - pending and overdue: the process died between commit and enqueue, Redis lost its data
//   (restart without persistence, flush, eviction), or a retry could not be scheduled;
// - sending with an expired lease: the worker died mid-attempt and its job is gone too (the
//   claim then records the interrupted attempt and tries again).
// A delivery counts as present when its job is in the main queue (job id = delivery id) or it is
// parked for its endpoint. Enqueuing one that turns out to exist is harmless (same job id, or a
// claim that finds the delivery busy). It walks the overdue deliveries with a cursor, a bounded
// number per run, so a large backlog of parked deliveries (overdue by design) never starves the rest.
// Deliveries of endpoints that have parked members (their circuit is open, or they are at their
// cap) are checked on every PARKED_EVERY-th run only: a stuck endpoint's backlog, thousands of
// parked deliveries read from PostgreSQL and looked up in Redis, is work that every healthy
// delivery shares the worker, Redis and PostgreSQL with. (The lookup is one ZMSCORE per endpoint
// and page, and job hashes are checked only for deliveries not parked.) One of theirs that Redis
// lost is then re-enqueued within PARKED_EVERY runs (a minute by default) instead of one.

const PAGE = 1_000;
/** Every how many runs the deliveries of endpoints with parked members are checked too. */
export const PARKED_EVERY = 6;

type Cursor = { at: Date; id: string };
/** Where each walk stopped: by status, and whether parked endpoints were included (a full run). */
export type SweepState = { cursors: Partial<Record<`${"pending" | "sending"}:${"full" | "partial"}`, Cursor>>; runs: number };

export function newSweepState(): SweepState {
  return { cursors: {}, runs: 0 };
}

export async function sweepDeliveries(
  /** `prefix`: Herald's own keys (the gates); `queuePrefix`: BullMQ's (hash-tagged, one slot). */
  deps: { redis: RedisClient; prefix: string; queuePrefix: string },
  opts: { graceMs: number; maxPerRun: number },
  state: SweepState,
): Promise<{ checked: number; enqueued: number }> {
  const cutoff = new Date(Date.now() - opts.graceMs);
  const gate = createEndpointGate(deps.redis, deps.prefix, 0);
  // BullMQ keeps a job in the hash <prefix>:<queue>:<job id>; a delivery's job id is its own id.
  // All of a queue's keys share one cluster slot (the prefix is a hash tag), so the pipelines
  // below go to one node.
  const jobKey = (deliveryId: string) => `${deps.queuePrefix}:${catalog.deliver.queue}:${deliveryId}`;
  let checked = 0;
  let enqueued = 0;
  // The first run is a full one (a worker that starts after Redis lost its data checks everything).
  const full = state.runs++ % PARKED_EVERY === 0;
  const skip = full ? [] : await gate.parkedEndpoints();
  const notSkipped = skip.length > 0 ? Prisma.sql`AND NOT (endpoint_id = ANY(${skip}::text[]))` : Prisma.empty;

  // Pending rows without a time (written by hand or by older code) become due now.
  await db.$executeRaw`UPDATE delivery SET next_attempt_at = now() WHERE status = 'pending' AND next_attempt_at IS NULL`;

  for (const status of ["pending", "sending"] as const) {
    const walk = `${status}:${full ? "full" : "partial"}` as const;
    while (checked < opts.maxPerRun) {
      const cursor = state.cursors[walk];
      const after = cursor ? Prisma.sql`AND (next_attempt_at, id) > (${cursor.at}, ${cursor.id})` : Prisma.empty;
      const rows = await db.$queryRaw<{ id: string; endpoint_id: string; next_attempt_at: Date }[]>`
        SELECT id, endpoint_id, next_attempt_at FROM delivery
        WHERE status = ${status}::"DeliveryStatus" AND next_attempt_at < ${cutoff} ${after} ${notSkipped}
        ORDER BY next_attempt_at, id LIMIT ${PAGE}`;
      checked += rows.length;
      const last = rows[rows.length - 1];
      if (rows.length > 0) {
        // Parked first (one command per endpoint), then the job hashes of the rest only: a stuck
        // endpoint's backlog is nearly all parked.
        const members = rows.flatMap((r) =>
          (["scheduled", "manual"] as const).map((trigger) => ({ endpointId: r.endpoint_id, member: memberOf(r.id, trigger) })),
        );
        const parkedEither = await gate.parkedMembers(members);
        const parked: typeof rows = [];
        const unparked: typeof rows = [];
        rows.forEach((r, i) => (parkedEither[2 * i] || parkedEither[2 * i + 1] ? parked : unparked).push(r));
        // A parked delivery's endpoint must be in the parked index, or nothing ever wakes it (a
        // worker died between parking and indexing): put it back.
        await gate.indexParked(parked.map((r) => r.endpoint_id));
        // A delivery whose job parks it between the two reads counts as missing and is enqueued
        // again: the claim's compare-and-set keeps that to one attempt at a time, and its parked
        // entry, once popped, finds it done.
        const queued = await jobsPresent(
          deps.redis,
          unparked.map((r) => jobKey(r.id)),
        );
        const missing = unparked.filter((_, i) => !queued[i]);
        if (missing.length > 0) {
          await dropStubs(
            deps.redis,
            missing.map((r) => jobKey(r.id)),
          );
          if (await enqueueDeliveries(missing.map((r) => ({ id: r.id })))) enqueued += missing.length;
        }
      }
      if (!last || rows.length < PAGE) {
        delete state.cursors[walk]; // reached the end: start from the oldest next time
        break;
      }
      state.cursors[walk] = { at: last.next_attempt_at, id: last.id };
    }
  }
  return { checked, enqueued };
}

/** Deletes job-hash stubs (no `data`), which would make BullMQ take a re-enqueue for a duplicate. */
async function dropStubs(redis: RedisClient, keys: string[]): Promise<void> {
  const p = redis.pipeline();
  for (const k of keys) p.eval(DROP_STUB, 1, k);
  await p.exec();
}

const DROP_STUB = `if redis.call('EXISTS', KEYS[1]) == 1 and redis.call('HEXISTS', KEYS[1], 'data') == 0 then redis.call('DEL', KEYS[1]) end`;

/**
 * Whether each job hash is a real job. A bare EXISTS is not enough: after Redis lost its data, a
 * late BullMQ script of a job that was in flight can write a field into a hash that no longer
 * exists, leaving a stub without the job's `data` that no list points to.
 */
async function jobsPresent(redis: RedisClient, keys: string[]): Promise<boolean[]> {
  if (keys.length === 0) return [];
  const p = redis.pipeline();
  for (const k of keys) p.hexists(k, "data");
  const res = (await p.exec()) ?? [];
  return res.map(([err, n]) => !err && Number(n) > 0);
}
