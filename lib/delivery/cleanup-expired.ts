import { db } from "../db";
import { idAtTime } from "../ids";
import { IDEMPOTENCY_TTL_MS } from "../http/idempotency";
import { EVENT_ID_WINDOW_MS } from "../messages/fan-out-message";

// Periodic clean-up of data past its retention (run by the worker, one process at a time):
// - idempotency records older than 24 h and eventId claims older than their 24 h window;
// - portal sessions that expired more than a day ago (kept a day so the portal can say "expired");
// - dead-lettered deliveries older than the dead-letter retention keep their rows (status, codes,
//   timings) but lose the bodies of their attempts;
// - message payloads past the message's own retention (payloadRetentionPeriod) are expunged,
//   together with the request bodies of its attempts (they carry the same payload).
// Each step works in bounded batches; work is looked for in a window just past each retention
// (runs are hourly), so old, already-cleaned rows are never scanned again.

const BATCH = 1_000;
const MAX_BATCHES = 50;
const SESSION_GRACE_MS = 24 * 3600 * 1000;
/** How far back past a retention limit each run looks (it runs hourly; a worker down this long leaves rows). */
const LOOKBACK_MS = 14 * 24 * 3600 * 1000;
const MAX_MESSAGE_RETENTION_DAYS = 90;
const MIN_MESSAGE_RETENTION_DAYS = 5;
const DAY_MS = 24 * 3600 * 1000;

export type CleanupCounts = {
  idempotencyRecords: number;
  eventIdClaims: number;
  portalSessions: number;
  deadLetterAttempts: number;
  expungedMessages: number;
};

async function inBatches(step: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const n = await step();
    total += n;
    if (n < BATCH) break;
  }
  return total;
}

export async function cleanupExpired(opts: { deadLetterRetentionDays: number; now?: Date }): Promise<CleanupCounts> {
  const now = opts.now ?? new Date();
  const idemBefore = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
  const claimBefore = new Date(now.getTime() - EVENT_ID_WINDOW_MS);
  const sessionBefore = new Date(now.getTime() - SESSION_GRACE_MS);
  const deadBefore = new Date(now.getTime() - opts.deadLetterRetentionDays * DAY_MS);
  const deadAfter = new Date(deadBefore.getTime() - LOOKBACK_MS);

  const idempotencyRecords = await inBatches(
    () => db.$executeRaw`
      DELETE FROM idempotency_record WHERE ctid IN (SELECT ctid FROM idempotency_record WHERE created_at < ${idemBefore} LIMIT ${BATCH})`,
  );
  const eventIdClaims = await inBatches(
    () => db.$executeRaw`
      DELETE FROM event_id_claim WHERE ctid IN (SELECT ctid FROM event_id_claim WHERE created_at < ${claimBefore} LIMIT ${BATCH})`,
  );
  const portalSessions = await inBatches(
    () => db.$executeRaw`
      DELETE FROM portal_session WHERE id IN (SELECT id FROM portal_session WHERE expires_at < ${sessionBefore} LIMIT ${BATCH})`,
  );
  const deadLetterAttempts = await inBatches(
    () => db.$executeRaw`
      UPDATE attempt SET request_body = NULL, response_body = NULL
      WHERE id IN (
        SELECT a.id FROM delivery d JOIN attempt a ON a.delivery_id = d.id
        WHERE d.status = 'failed' AND d.dead_at < ${deadBefore} AND d.dead_at >= ${deadAfter}
          AND (a.request_body IS NOT NULL OR a.response_body IS NOT NULL)
        LIMIT ${BATCH})`,
  );
  // Messages: ids are time-ordered, so the window is an id range.
  const oldest = idAtTime("message", new Date(now.getTime() - MAX_MESSAGE_RETENTION_DAYS * DAY_MS - LOOKBACK_MS));
  const newest = idAtTime("message", new Date(now.getTime() - MIN_MESSAGE_RETENTION_DAYS * DAY_MS));
  const expungedMessages = await inBatches(async () => {
    const ids = await db.$queryRaw<{ id: string }[]>`
      UPDATE message SET payload = NULL, previous = NULL
      WHERE id IN (
        SELECT id FROM message
        WHERE id >= ${oldest} AND id < ${newest} AND payload IS NOT NULL
          AND created_at < ${now.toISOString()}::timestamptz - make_interval(days => payload_retention_days)
        LIMIT ${BATCH})
      RETURNING id`;
    if (ids.length > 0)
      await db.$executeRaw`UPDATE attempt SET request_body = NULL WHERE message_id = ANY(${ids.map((r) => r.id)}::text[])`;
    return ids.length;
  });
  return { idempotencyRecords, eventIdClaims, portalSessions, deadLetterAttempts, expungedMessages };
}
