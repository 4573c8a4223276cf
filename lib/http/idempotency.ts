import { db } from "../db";
import { query } from "../sql";
import { sha256Hex } from "../crypto/tokens";
import { secretBox } from "../services";
import type { Principal } from "../auth/principal";
import { conflict, badRequest } from "./errors";

// `idempotency-key`: the first successful response for (environment, key) is replayed for 24 h to
// the same caller. The same key with a different request, or from another caller, is a 409; so
// is a retry while the first is still running. Failed requests release the key so the caller can
// correct and retry. A request that never finished (its process crashed or lost the database
// mid-way, so it could neither complete nor release) holds the key only for IDEMPOTENCY_LEASE_MS:
// then a retry takes the key over and runs, and the first request, should it still finish, no
// longer writes its answer. The stored answer is sealed with the secret box: some answers are
// credentials (a portal link, a generated callback secret), and a database dump must not hold
// them usable.
//
// A route whose answer is known before it writes (publish) stores the answer in its own statement
// instead (`recordsAnswer` in lib/http/route.ts, `answerRecordSql` here): one round trip instead of
// claim, store and complete. That insert has no ON CONFLICT: a key already taken aborts the whole
// statement (nothing stored), and the request goes the claim's way (replay, 409, or take-over), as
// it does when the route's write does not happen (an error, which may be a replay's to answer).

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

/** A POST carrying an idempotency-key, as the route saw it. */
export type IdempotentRequest = { environmentId: string; key: string; requestHash: string };

/**
 * What makes two requests the same request for a key: the caller, method, path, query and body.
 * The caller is in it because an answer is replayed only to whoever got it: a replay skips the
 * handler and the checks made there (an owner's new API key replayed to an admin; one
 * application's answer to another's portal session). Another caller reusing the key gets the
 * 409 of a key used with a different request.
 */
export function requestFingerprint(p: Principal, method: string, pathAndQuery: string, body: string): string {
  const caller = p.kind === "portal" ? `portal ${p.tokenId}` : p.via === "api_key" ? `api_key ${p.apiKeyId ?? "-"}` : `user ${p.userId ?? "-"}`;
  return `${caller}\n${method} ${pathAndQuery}\n${body}`;
}

export function idempotentRequest(environmentId: string, key: string, fingerprint: string): IdempotentRequest {
  if (key.length > 256) throw badRequest("idempotency-key must be at most 256 characters");
  return { environmentId, key, requestHash: sha256Hex(fingerprint) };
}

/** The answer to store for a request, sealed, as the route's own statement writes it. */
export type AnswerRecord = { key: string; requestHash: string; status: number; sealed: string };

export const answerRecord = (req: IdempotentRequest, res: StoredResponse): AnswerRecord => ({
  key: req.key,
  requestHash: req.requestHash,
  status: res.status,
  sealed: sealAnswer(res.body),
});

const sealAnswer = (body: unknown) => secretBox().seal(JSON.stringify(body ?? null));

/**
 * SQL: a CTE `idem` inserting the answer record for each row of `from` (one row when the route's
 * write happened, none when it did not); `p` names the SQL parameters: the environment, then the
 * record's key (null: no record), request hash, status and sealed answer.
 */
export function answerRecordSql(from: string, p: { environmentId: string; key: string; hash: string; status: string; sealed: string }) {
  return `idem AS (
       INSERT INTO idempotency_record (environment_id, key, request_hash, response_status, response_sealed, created_at)
       SELECT ${p.environmentId}, ${p.key}::text, ${p.hash}::text, ${p.status}::int, ${p.sealed}::text, now()
       FROM ${from} WHERE ${p.key}::text IS NOT NULL
       RETURNING 1
     )`;
}

/**
 * Thrown by a route that records its own answer when it stored nothing with the record: the key
 * was already taken, or the write did not happen (the error it would answer may be a replay's
 * business). The request then goes through the claim, as on any other route.
 */
export class AnswerNotRecorded extends Error {
  constructor() {
    super("the answer was not recorded with the write; the idempotency-key is claimed first");
  }
}

/** The answer record's insert found the key taken: PostgreSQL's unique violation on its key. */
export const isKeyTaken = (err: unknown) =>
  err instanceof Error &&
  (err as { code?: unknown }).code === "23505" &&
  (err as { constraint?: unknown }).constraint === "idempotency_record_pkey";

export async function claimIdempotencyKey(request: IdempotentRequest): Promise<IdempotencyClaim> {
  const { environmentId, key, requestHash } = request;
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
          [environmentId, key, res.status, sealAnswer(res.body), claimedAt.toISOString()],
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
  if (!existing) return claimIdempotencyKey(request); // released meanwhile
  if (existing.requestHash !== requestHash)
    throw conflict(
      "idempotency-key was already used in this environment with a different request, or by another caller (an API key, a signed-in member or a portal link has keys of its own): use a new key",
      "idempotency_conflict",
    );
  if (existing.responseStatus === null)
    throw conflict(
      `A request with this idempotency-key is still being processed; retry when it has finished (a request cut off mid-way frees its key after ${IDEMPOTENCY_LEASE_MS / 1000} s)`,
      "idempotency_in_progress",
    );
  const body: unknown = existing.responseSealed ? JSON.parse(secretBox().open(existing.responseSealed)) : null;
  return { kind: "replay", response: { status: existing.responseStatus, body } };
}
