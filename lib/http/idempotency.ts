import { db } from "../db";
import { query } from "../sql";
import { sha256Hex } from "../crypto/tokens";
import { secretBox } from "../services";
import { conflict, badRequest } from "./errors";

// `idempotency-key`: the first successful response for (environment, key) is replayed for 24 h.
// The same key with a different request is a 409; so is a retry while the first is still running.
// Failed requests release the key so the caller can correct and retry. The stored answer is
// sealed with the secret box: some answers are credentials (a portal link, a generated callback
// secret), and a database dump must not hold them usable.

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

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
  // Insert, or take over a record older than the TTL; otherwise someone holds the key.
  // node-postgres, not Prisma: every SDK POST carries a key, so this is on the publish hot path.
  const claimed = await query<{ key: string }>(
    "idempotency_claim",
    `INSERT INTO idempotency_record (environment_id, key, request_hash, created_at)
     VALUES ($1, $2, $3, now())
     ON CONFLICT (environment_id, key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, response_status = NULL, response_sealed = NULL, created_at = now()
       WHERE idempotency_record.created_at < now() - make_interval(secs => $4)
     RETURNING key`,
    [environmentId, key, requestHash, IDEMPOTENCY_TTL_MS / 1000],
  );
  const where = { environmentId_key: { environmentId, key } };
  if (claimed.length > 0) {
    return {
      kind: "new",
      complete: async (res) => {
        await query(
          "idempotency_complete",
          "UPDATE idempotency_record SET response_status = $3, response_sealed = $4 WHERE environment_id = $1 AND key = $2",
          [environmentId, key, res.status, secretBox().seal(JSON.stringify(res.body ?? null))],
        );
      },
      release: async () => {
        await query(
          "idempotency_release",
          "DELETE FROM idempotency_record WHERE environment_id = $1 AND key = $2 AND response_status IS NULL",
          [environmentId, key],
        );
      },
    };
  }
  const existing = await db.idempotencyRecord.findUnique({ where });
  if (!existing) return claimIdempotencyKey(environmentId, key, fingerprint); // released meanwhile
  if (existing.requestHash !== requestHash)
    throw conflict("idempotency-key was already used with a different request", "idempotency_conflict");
  if (existing.responseStatus === null)
    throw conflict("A request with this idempotency-key is still being processed", "idempotency_in_progress");
  const body: unknown = existing.responseSealed ? JSON.parse(secretBox().open(existing.responseSealed)) : null;
  return { kind: "replay", response: { status: existing.responseStatus, body } };
}
