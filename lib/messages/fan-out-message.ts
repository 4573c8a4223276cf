import { answerRecordSql, AnswerNotRecorded, isKeyTaken, type AnswerRecord } from "../http/idempotency";
import { newId } from "../ids";
import { query } from "../sql";

// Fan-out: which endpoints a message goes to, and the one statement that stores messages with a
// pending delivery per target endpoint. Publishing (and send-example and single-message replay,
// which publish), range replays and operational events all go through here, so matching and the
// insert have one definition. Enqueuing stays with the callers: publish enqueues at once, a
// replay task paces its deliveries.

export const EVENT_ID_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * SQL condition: endpoint `e` receives a message of event type `eventType` carrying `channels`
 * (both SQL expressions). Only active endpoints receive. An endpoint without an event-type filter
 * receives every type; one without channels receives every message, and one with channels only
 * messages that carry at least one of them.
 */
export function endpointWantsSql(eventType: string, channels: string): string {
  return `e.state = 'active'
    AND (coalesce(cardinality(e.event_types), 0) = 0 OR ${eventType} = ANY(e.event_types))
    AND (coalesce(cardinality(e.channels), 0) = 0 OR e.channels && ${channels})`;
}

/**
 * SQL condition: endpoint `e` receives a message addressed to `addressedTo` (a text[] expression:
 * the endpoints it names, or empty/null for none). A message that names endpoints goes to those
 * that are active, whatever they subscribe to (send-example sends any type); one that names none
 * goes by subscription (endpointWantsSql). Publish and replays both use it, so a sample sent to one
 * endpoint is never replayed to the others.
 */
export function endpointReceivesSql(eventType: string, channels: string, addressedTo: string): string {
  return `(CASE WHEN cardinality(${addressedTo}) > 0 THEN e.state = 'active' AND e.id = ANY(${addressedTo})
    ELSE ${endpointWantsSql(eventType, channels)} END)`;
}

const MESSAGE_COLUMNS =
  "id, environment_id, application_id, event_type, event_id, payload, previous, channels, payload_retention_days, replay_of_id, created_at, addressed_to";

/**
 * The `dlv` CTE after the `msg` CTE (an INSERT INTO message … RETURNING the columns below): one
 * pending delivery per row of `rows` (a FROM item with columns id, endpoint_id and message_id),
 * due at the message's creation. Deliveries of a message that was not inserted are not either.
 */
function deliveries(rows: string): string {
  return `, dlv AS (
       INSERT INTO delivery (id, environment_id, application_id, endpoint_id, message_id, event_type, status,
                             next_attempt_at, created_at, updated_at)
       SELECT x.id, m.environment_id, m.application_id, x.endpoint_id, m.id, m.event_type, 'pending',
              m.created_at, m.created_at, m.created_at
       FROM ${rows}
       JOIN msg m ON m.id = x.message_id
       RETURNING 1
     )`;
}
const unnestRows = (ids: string, endpointIds: string, messageIds: string) =>
  `unnest(${ids}::text[], ${endpointIds}::text[], ${messageIds}::text[]) AS x(id, endpoint_id, message_id)`;
const COUNTS = "(SELECT count(*) FROM msg)::int AS messages, (SELECT count(*) FROM dlv)::int AS deliveries";
const RETURNING = "RETURNING id, environment_id, application_id, event_type, created_at";

/**
 * The eventId claim and the message insert of one new message: $1 id, $2 environment, $4 event
 * type, $5 eventId, $6 payload, $7 previous, $8 channels, $9 retention days, $10 replay of, $11
 * created at, $15 the eventId window in seconds, $16 the endpoints it is addressed to; `app` is
 * the application's SQL expression and `from` the FROM clause both inserts select from (their one
 * row, or none: nothing is stored).
 * With an eventId, the message is only stored if the eventId is claimed: free, or last claimed
 * longer ago than the window.
 */
function claimAndMessage(app: string, from: string): string {
  return `claim AS (
       INSERT INTO event_id_claim (environment_id, event_id, message_id, created_at)
       SELECT $2, $5, $1, now() ${from} WHERE $5::text IS NOT NULL
       ON CONFLICT (environment_id, event_id) DO UPDATE
         SET message_id = EXCLUDED.message_id, created_at = now()
         WHERE event_id_claim.created_at < now() - make_interval(secs => $15)
       RETURNING message_id
     ), msg AS (
       INSERT INTO message (${MESSAGE_COLUMNS})
       SELECT $1, $2, ${app}, $4, $5, $6::jsonb, $7::jsonb, $8::text[], $9, $10, $11::timestamptz, $16::text[] ${from}
       WHERE $5::text IS NULL OR EXISTS (SELECT 1 FROM claim)
       ${RETURNING}
     )`;
}

// $3 the application id, $12-$14 the deliveries' ids, endpoints and message ids.
const STORE_MESSAGE_SQL = `WITH ${claimAndMessage("$3", "")}${deliveries(unnestRows("$12", "$13", "$14"))}
     SELECT ${COUNTS}`;

/** Delivery ids a publish brings: an application with more matching endpoints costs a second statement. */
const PUBLISH_DELIVERY_IDS = 16;

// Publish in one round trip. $3 the application's id or uid, $12 delivery ids to use, $13 the
// scope's application (a portal session's) or null, $14 only these endpoints or null (what the
// message stores as addressedTo, $16). `target` is the application with the event type's state
// and the matching endpoints; `go` is that row only when the message can be stored here: the
// event type is in the catalog, the ids are enough (with more endpoints nothing is claimed or
// stored, and storeMessage follows) and the idempotency-key $17, if any, has no record yet.
const PUBLISH_SQL = `WITH target AS (
       SELECT a.id AS application_id,
         (SELECT CASE WHEN et.archived THEN 'archived' ELSE 'ok' END FROM event_type et
           WHERE et.environment_id = $2 AND et.name = $4) AS event_type,
         COALESCE((SELECT array_agg(e.id ORDER BY e.id) FROM endpoint e
           WHERE e.application_id = a.id AND ${endpointReceivesSql("$4", "$8::text[]", "$14::text[]")}), '{}') AS endpoint_ids
       FROM application a
       WHERE a.environment_id = $2 AND a.internal = false AND (a.id = $3 OR a.uid = $3)
         AND ($13::text IS NULL OR a.id = $13)
       LIMIT 1
     ), go AS (
       SELECT * FROM target WHERE event_type = 'ok' AND cardinality(endpoint_ids) <= cardinality($12::text[])
         -- A retry of an answered publish stores nothing and goes to the claim (its replay) without
         -- writing the message first; the record's unique key stays the guard against a race.
         AND NOT EXISTS (SELECT 1 FROM idempotency_record r WHERE r.environment_id = $2 AND r.key = $17::text)
     ), ${claimAndMessage("go.application_id", "FROM go")}${deliveries(
       `(SELECT ($12::text[])[u.n] AS id, u.endpoint_id, $1::text AS message_id
         FROM go, unnest(go.endpoint_ids) WITH ORDINALITY AS u(endpoint_id, n)) AS x`,
     )}, ${answerRecordSql("msg", { environmentId: "$2", key: "$17", hash: "$18", status: "$19", sealed: "$20" })}
     SELECT t.application_id, t.event_type, t.endpoint_ids, ${COUNTS}
     FROM (SELECT 1) one LEFT JOIN target t ON true`;

export type NewMessage = {
  id: string;
  environmentId: string;
  applicationId: string;
  eventType: string;
  eventId: string | null;
  payload: unknown;
  previous: unknown;
  channels: string[];
  payloadRetentionDays: number;
  replayOfId: string | null;
  createdAt: Date;
  /** The endpoints it is sent to by name (send-example, a replay to one endpoint); [] = by subscription. */
  addressedTo: string[];
};

/** The two statements' parameters: the message's ($3 is `app`), $12-$14 each statement's own, the eventId window and addressedTo. */
function messageParams(m: Omit<NewMessage, "applicationId">, app: string, own: [unknown, unknown, unknown]): unknown[] {
  return [
    m.id,
    m.environmentId,
    app,
    m.eventType,
    m.eventId,
    JSON.stringify(m.payload),
    m.previous === null || m.previous === undefined ? null : JSON.stringify(m.previous),
    m.channels,
    m.payloadRetentionDays,
    m.replayOfId,
    m.createdAt.toISOString(),
    ...own,
    EVENT_ID_WINDOW_MS / 1000,
    m.addressedTo,
  ];
}

/**
 * Stores a new message and one pending delivery per endpoint, atomically (one statement: all or
 * nothing). Returns the delivery ids, or null when the message's eventId is already taken.
 */
export async function storeMessage(m: NewMessage, endpointIds: string[]): Promise<string[] | null> {
  const deliveryIds = endpointIds.map(() => newId("delivery"));
  const [stored] = await query<{ messages: number }>(
    "fan_out_message",
    STORE_MESSAGE_SQL,
    messageParams(m, m.applicationId, [deliveryIds, endpointIds, deliveryIds.map(() => m.id)]),
  );
  return stored && stored.messages > 0 ? deliveryIds : null;
}

export type PublishTarget = { applicationId: string; eventType: "ok" | "archived" | null; endpointIds: string[] };

/**
 * Publish's one statement: finds the application (`appIdOrUid`, within the scope's application
 * when it has one), the event type's state and the matching endpoints (or only those of `only`
 * that are active) and, when the application exists and the event type is in the catalog, stores
 * the message with its deliveries as storeMessage does. More than PUBLISH_DELIVERY_IDS endpoints
 * take a second statement. Answers the target (null: no such application) and the delivery ids:
 * null when nothing was stored, because of the event type's state (see the target) or because
 * the eventId is taken.
 */
export async function storeMessageForApplication(
  m: Omit<NewMessage, "applicationId">,
  appIdOrUid: string,
  scopeApplicationId: string | null,
  only: string[] | null,
  record: AnswerRecord | null = null,
): Promise<{ target: PublishTarget | null; deliveryIds: string[] | null }> {
  const ids = Array.from({ length: PUBLISH_DELIVERY_IDS }, () => newId("delivery"));
  const params = messageParams(m, appIdOrUid, [ids, scopeApplicationId, only]);
  params.push(record?.key ?? null, record?.requestHash ?? null, record?.status ?? null, record?.sealed ?? null);
  let row:
    | { application_id: string | null; event_type: "ok" | "archived" | null; endpoint_ids: string[] | null; messages: number }
    | undefined;
  try {
    [row] = await query<NonNullable<typeof row>>("publish_message", PUBLISH_SQL, params);
  } catch (err) {
    // The key's record exists: the whole statement was undone, nothing is stored.
    if (record && isKeyTaken(err)) throw new AnswerNotRecorded();
    throw err;
  }
  if (!row?.application_id) return { target: null, deliveryIds: null };
  const target = { applicationId: row.application_id, eventType: row.event_type, endpointIds: row.endpoint_ids ?? [] };
  if (target.eventType !== "ok") return { target, deliveryIds: null };
  if (target.endpointIds.length > ids.length) {
    // The second statement does not store the record: the caller claims the key and comes back.
    if (record) return { target, deliveryIds: null };
    const deliveryIds = await storeMessage({ ...m, applicationId: target.applicationId }, target.endpointIds);
    return { target, deliveryIds };
  }
  return { target, deliveryIds: row.messages > 0 ? ids.slice(0, target.endpointIds.length) : null };
}

export type MessageCopy = { id: string; sourceId: string; endpointIds: string[] };

/**
 * The statement that ingests stored messages again as new ones (new ids, replay_of_id = the
 * source, payload copied in SQL so it never travels through the process), each with a pending
 * delivery per endpoint; for the caller's transaction. A source whose payload is gone meanwhile
 * is skipped, with its deliveries. `taskId`: the range-replay task making the copies (its progress
 * and its cancel find them by it). `onlyTo`: the one endpoint the replay sends to, which the copies
 * are then addressed to; null = each copy is addressed as its source was. Answers one row:
 * `messages` and `deliveries` inserted.
 */
export function copyMessagesSql(
  copies: MessageCopy[],
  taskId: string | null = null,
  onlyTo: string | null = null,
): { text: string; values: unknown[]; deliveryIds: string[] } {
  const deliveryIds: string[] = [];
  const endpointIds: string[] = [];
  const messageIds: string[] = [];
  for (const c of copies)
    for (const ep of c.endpointIds) {
      deliveryIds.push(newId("delivery"));
      endpointIds.push(ep);
      messageIds.push(c.id);
    }
  const text = `WITH msg AS (
       INSERT INTO message (${MESSAGE_COLUMNS}, task_id)
       SELECT n.id, m.environment_id, m.application_id, m.event_type, NULL, m.payload, m.previous, m.channels,
              m.payload_retention_days, m.id, now(),
              CASE WHEN $7::text IS NULL THEN m.addressed_to ELSE ARRAY[$7::text] END, $6::text
       FROM unnest($1::text[], $2::text[]) AS n(id, src)
       JOIN message m ON m.id = n.src
       WHERE m.payload IS NOT NULL
       ${RETURNING}
     )${deliveries(unnestRows("$3", "$4", "$5"))}
     SELECT ${COUNTS}`;
  const values = [copies.map((c) => c.id), copies.map((c) => c.sourceId), deliveryIds, endpointIds, messageIds, taskId, onlyTo];
  return { text, values, deliveryIds };
}
