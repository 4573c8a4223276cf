import { db } from "../db";
import { idAtTime } from "../ids";
import { invalid } from "../http/errors";
import { Prisma } from "../generated/prisma/client";
import { sqlStateOf } from "../outage";
import { MAX_SEARCH_MESSAGES } from "./search-messages";

// Search inside payloads, for the delivery log: the application's messages whose payload (its
// JSON text) contains a term, case-insensitive. A substring match over every payload cannot be an
// index range, so it is bounded four ways, all enforced here:
// - the term has at least 3 characters, so the pg_trgm GIN index on payload::text
//   (migration 20261203103036_portal_log_search) can serve it: shorter terms have no trigram;
// - a time window of at most 7 days (the last 7 unless the user narrows it), an id range;
// - at most MAX_SEARCH_MESSAGES matches, newest first;
// - a statement timeout: a term in nearly every payload ("order") makes the index useless, and
//   rather than scan for seconds the search answers 422 asking for a rarer term or a narrower window.

export const PAYLOAD_WINDOW_MS = 7 * 24 * 3600_000;
const STATEMENT_TIMEOUT_MS = 3_000;
/** SQLSTATE query_canceled: the statement timeout. */
const QUERY_CANCELED = "57014";

export type PayloadSearch = { term: string; after?: Date | undefined; before?: Date | undefined };

/** The window searched: the request's after/before, the last 7 days by default, never wider. */
export function payloadWindow(q: Omit<PayloadSearch, "term">, now = new Date()): { after: Date; before: Date } {
  const before = q.before ?? now;
  const after = q.after ?? new Date(before.getTime() - PAYLOAD_WINDOW_MS);
  if (before.getTime() - after.getTime() > PAYLOAD_WINDOW_MS)
    throw invalid(["query", "after"], "a payload search covers at most 7 days: set after and before to 7 days apart or less");
  return { after, before };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Ids of the newest (at most MAX_SEARCH_MESSAGES) messages of the application whose payload contains the term. */
export async function messagesByPayload(
  appId: string,
  q: PayloadSearch,
  statementTimeoutMs = STATEMENT_TIMEOUT_MS,
): Promise<{ ids: string[]; limited: boolean }> {
  // The term's length (3 to 200 characters) is checked where the query is parsed (schemas.ts).
  const { after, before } = payloadWindow(q);
  const pattern = `%${escapeLike(q.term)}%`;
  try {
    const rows = await db.$transaction(async (tx) => {
      // SET LOCAL: the timeout ends with this transaction, never leaking to the pooled connection.
      await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(statementTimeoutMs))}`);
      return tx.$queryRaw<{ id: string }[]>(Prisma.sql`
        SELECT id FROM message
        WHERE application_id = ${appId}
          AND id > ${idAtTime("message", after)} AND id < ${idAtTime("message", before)}
          AND payload::text ILIKE ${pattern}
        ORDER BY id DESC
        LIMIT ${MAX_SEARCH_MESSAGES + 1}`);
    });
    return { ids: rows.slice(0, MAX_SEARCH_MESSAGES).map((r) => r.id), limited: rows.length > MAX_SEARCH_MESSAGES };
  } catch (e) {
    if (sqlStateOf(e) === QUERY_CANCELED)
      throw invalid(
        ["query", "payload"],
        "this search is too broad to answer quickly: use a longer or rarer term, or a narrower time range (after/before)",
      );
    throw e;
  }
}
