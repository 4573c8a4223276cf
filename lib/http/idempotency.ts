import { db } from "../db";
import { sha256Hex } from "../crypto/tokens";
import { conflict, badRequest } from "./errors";

// `idempotency-key`: the first successful response for (environment, key) is replayed for 24 h.
// The same key with a different request is a 409; so is a retry while the first is still running.
// Failed requests release the key so the caller can correct and retry.

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
  const staleBefore = new Date(Date.now() - IDEMPOTENCY_TTL_MS);
  // Insert, or take over a record older than the TTL; otherwise someone holds the key.
  const claimed = await db.$queryRaw<{ key: string }[]>`
    INSERT INTO idempotency_record (environment_id, key, request_hash, created_at)
    VALUES (${environmentId}, ${key}, ${requestHash}, now())
    ON CONFLICT (environment_id, key) DO UPDATE
      SET request_hash = EXCLUDED.request_hash, response_status = NULL, response_body = NULL, created_at = now()
      WHERE idempotency_record.created_at < ${staleBefore}
    RETURNING key`;
  const where = { environmentId_key: { environmentId, key } };
  if (claimed.length > 0) {
    return {
      kind: "new",
      complete: async (res) => {
        await db.idempotencyRecord.update({
          where,
          data: { responseStatus: res.status, responseBody: (res.body ?? null) as object },
        });
      },
      release: async () => {
        await db.idempotencyRecord.deleteMany({ where: { environmentId, key, responseStatus: null } });
      },
    };
  }
  const existing = await db.idempotencyRecord.findUnique({ where });
  if (!existing) return claimIdempotencyKey(environmentId, key, fingerprint); // released meanwhile
  if (existing.requestHash !== requestHash)
    throw conflict("idempotency-key was already used with a different request", "idempotency_conflict");
  if (existing.responseStatus === null)
    throw conflict("A request with this idempotency-key is still being processed", "idempotency_in_progress");
  return { kind: "replay", response: { status: existing.responseStatus, body: existing.responseBody } };
}
