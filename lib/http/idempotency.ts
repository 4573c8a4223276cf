import { db } from "../db";
import { query } from "../sql";
import { sha256Hex } from "../crypto/tokens";
import { secretBox } from "../services";
import { conflict, badRequest } from "./errors";

// `idempotency-key`: the first successful response for (environment, key) is replayed for 24 h.
// The same key with a different request is a 409; so is a retry while the first is still running.
// Failed requests release the key so the caller can correct and retry. A request that never
// finished (its process crashed or lost the database mid-way, so it could neither complete nor
// release) holds the key only for IDEMPOTENCY_LEASE_MS: then a retry takes the key over and runs,
// and the first request, should it still finish, no longer writes its answer. The stored answer is
// sealed with the secret box: some answers are credentials (a portal link, a generated callback
// secret), and a database dump must not hold them usable.

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long an unfinished claim holds its key: well past any request's own limits (the pools give
 * up connecting after 5 s; a publish takes milliseconds; long work runs as tasks), so a request
 * still running is never run twice, and short enough that a client's retry loop gets through.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;

export type StoredResponse = { status: number; body: unknown };

export type IdempotencyClaim =
  | { kind: "new"; complete(res: StoredResponse): Promise<void>; release(): Promise<void> }
  | { kind: "replay"; response: StoredResponse };

export async function claimIdempotencyKey(
  environmentId: string,
  key: string,
  fingerprint: string,
): Promise<IdempotencyClaim> {
  if (key.length > 256) throw badRequest("idempotency-key must be at most 256 characters");
  const requestHash = sha256Hex(fingerprint);
  // Insert, or take over a record older than the TTL or an unfinished claim whose lease ran out;
  // otherwise someone holds the key. The claim's time identifies it: a request whose claim was
  // taken over neither completes nor releases the new one.
  // node-postgres, not Prisma: every SDK POST carries a key, so this is on the publish hot path.
  const claimed = await query<{ created_at: Date }>(
    "idempotency_claim_leased",
    `INSERT INTO idempotency_record (environment_id, key, request_hash, created_at)
     VALUES ($1, $2, $3, now())
     ON CONFLICT (environment_id, key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, response_status = NULL, response_sealed = NULL, created_at = now()
       WHERE idempotency_record.created_at < now() - make_interval(secs => $4)
          OR (idempotency_record.response_status IS NULL AND idempotency_record.created_at < now() - make_interval(secs => $5))
     RETURNING created_at`,
    [environmentId, key, requestHash, IDEMPOTENCY_TTL_MS / 1000, IDEMPOTENCY_LEASE_MS / 1000],
  );
  const where = { environmentId_key: { environmentId, key } };
  const claimedAt = claimed[0]?.created_at;
  if (claimedAt) {
    return {
      kind: "new",
      complete: async (res) => {
        await query(
          "idempotency_complete_claim",
          `UPDATE idempotency_record SET response_status = $3, response_sealed = $4
           WHERE environment_id = $1 AND key = $2 AND created_at = $5::timestamptz`,
          [environmentId, key, res.status, secretBox().seal(JSON.stringify(res.body ?? null)), claimedAt.toISOString()],
        );
      },
      release: async () => {
        await query(
          "idempotency_release_claim",
          `DELETE FROM idempotency_record
           WHERE environment_id = $1 AND key = $2 AND response_status IS NULL AND created_at = $3::timestamptz`,
          [environmentId, key, claimedAt.toISOString()],
        );
      },
    };
  }
  const existing = await db.idempotencyRecord.findUnique({ where });
  if (!existing) return claimIdempotencyKey(environmentId, key, fingerprint); // released meanwhile
  if (existing.requestHash !== requestHash)
    throw conflict("idempotency-key was already used with a different request", "idempotency_conflict");
  if (existing.responseStatus === null)
    throw conflict(
      `A request with this idempotency-key is still being processed; retry when it has finished (a request cut off mid-way frees its key after ${IDEMPOTENCY_LEASE_MS / 1000} s)`,
      "idempotency_in_progress",
    );
  const body: unknown = existing.responseSealed ? JSON.parse(secretBox().open(existing.responseSealed)) : null;
  return { kind: "replay", response: { status: existing.responseStatus, body } };
}
