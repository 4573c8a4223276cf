import { db } from "../db";
import { ID_PREFIXES } from "../ids";

// The delivery log's id search: the messages whose id or publisher eventId starts with what the
// user typed (a whole id is its own prefix). Both lookups stop at a small cap, and each is one
// index range, whatever the table size:
// - a message id prefix becomes a range on the primary key (`msg_01jd` ≤ id < `msg_01je`): ids are
//   lowercase base32 that sorts the same under every collation, so the range is exactly the
//   prefix, read newest first;
// - an eventId is any string the publisher chose, so its prefix is a LIKE served by the
//   (environment_id, event_id text_pattern_ops) index (a plain index serves LIKE only under the C
//   collation, and the database's may be another).

/** At most this many messages per lookup; a longer prefix narrows a search that reaches it. */
export const MAX_SEARCH_MESSAGES = 100;

const ULID = "0123456789abcdefghjkmnpqrstvwxyz";
const MESSAGE_PREFIX = `${ID_PREFIXES.message}_`;
const MESSAGE_ID_PREFIX = new RegExp(`^${MESSAGE_PREFIX}[${ULID}]{1,26}$`);

/** The smallest id after every id starting with `prefix` (the last digit that can go up, up by one), or null. */
function upperBound(prefix: string): string | null {
  let body = prefix.slice(MESSAGE_PREFIX.length);
  while (body.endsWith("z")) body = body.slice(0, -1);
  if (!body) return null;
  return MESSAGE_PREFIX + body.slice(0, -1) + ULID[ULID.indexOf(body.at(-1)!) + 1]!;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Ids of the application's messages whose id or eventId starts with `term`, newest first. */
export async function messagesByIdPrefix(app: { id: string; environmentId: string }, term: string): Promise<string[]> {
  const lower = term.toLowerCase();
  const byId = MESSAGE_ID_PREFIX.test(lower)
    ? db.message.findMany({
        where: { applicationId: app.id, id: { gte: lower, ...(upperBound(lower) ? { lt: upperBound(lower)! } : {}) } },
        select: { id: true },
        orderBy: { id: "desc" },
        take: MAX_SEARCH_MESSAGES,
      })
    : Promise.resolve([]);
  // The pattern operator class's ~>=~/~<~ range is what the planner derives from a constant-prefix
  // LIKE; the application filter is checked on the rows that index finds.
  const byEventId = db.$queryRaw<{ id: string }[]>`
    SELECT id FROM message
    WHERE environment_id = ${app.environmentId} AND application_id = ${app.id}
      AND event_id LIKE ${escapeLike(term) + "%"}
    LIMIT ${MAX_SEARCH_MESSAGES}`;
  const [a, b] = await Promise.all([byId, byEventId]);
  return [...new Set([...a, ...b].map((m) => m.id))].sort().reverse();
}
