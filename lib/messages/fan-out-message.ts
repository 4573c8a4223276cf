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

const MESSAGE_COLUMNS =
  "id, environment_id, application_id, event_type, event_id, payload, previous, channels, payload_retention_days, replay_of_id, created_at";

/**
 * The rest of the statement after the `msg` CTE (an INSERT INTO message … RETURNING the columns
 * below): one pending delivery per (message, endpoint), due at the message's creation, and the
 * counts. Deliveries of a message that was not inserted are not either.
 */
function deliveriesAndCounts(ids: string, endpointIds: string, messageIds: string): string {
  return `, dlv AS (
       INSERT INTO delivery (id, environment_id, application_id, endpoint_id, message_id, event_type, status,
                             next_attempt_at, created_at, updated_at)
       SELECT x.id, m.environment_id, m.application_id, x.endpoint_id, m.id, m.event_type, 'pending',
              m.created_at, m.created_at, m.created_at
       FROM unnest(${ids}::text[], ${endpointIds}::text[], ${messageIds}::text[]) AS x(id, endpoint_id, message_id)
       JOIN msg m ON m.id = x.message_id
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM msg)::int AS messages, (SELECT count(*) FROM dlv)::int AS deliveries`;
}
const RETURNING = "RETURNING id, environment_id, application_id, event_type, created_at";

// With an eventId, the message is only stored if the eventId is claimed: free, or last claimed
// longer ago than the window.
const STORE_MESSAGE_SQL = `WITH claim AS (
       INSERT INTO event_id_claim (environment_id, event_id, message_id, created_at)
       SELECT $2, $5, $1, now() WHERE $5::text IS NOT NULL
       ON CONFLICT (environment_id, event_id) DO UPDATE
         SET message_id = EXCLUDED.message_id, created_at = now()
         WHERE event_id_claim.created_at < now() - make_interval(secs => $15)
       RETURNING message_id
     ), msg AS (
       INSERT INTO message (${MESSAGE_COLUMNS})
       SELECT $1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::text[], $9, $10, $11::timestamptz
       WHERE $5::text IS NULL OR EXISTS (SELECT 1 FROM claim)
       ${RETURNING}
     )${deliveriesAndCounts("$12", "$13", "$14")}`;

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
};

/**
 * Stores a new message and one pending delivery per endpoint, atomically (one statement: all or
 * nothing). Returns the delivery ids, or null when the message's eventId is already taken.
 */
export async function storeMessage(m: NewMessage, endpointIds: string[]): Promise<string[] | null> {
  const deliveryIds = endpointIds.map(() => newId("delivery"));
  const [stored] = await query<{ messages: number }>("fan_out_message", STORE_MESSAGE_SQL, [
    m.id,
    m.environmentId,
    m.applicationId,
    m.eventType,
    m.eventId,
    JSON.stringify(m.payload),
    m.previous === null || m.previous === undefined ? null : JSON.stringify(m.previous),
    m.channels,
    m.payloadRetentionDays,
    m.replayOfId,
    m.createdAt.toISOString(),
    deliveryIds,
    endpointIds,
    deliveryIds.map(() => m.id),
    EVENT_ID_WINDOW_MS / 1000,
  ]);
  return stored && stored.messages > 0 ? deliveryIds : null;
}

export type MessageCopy = { id: string; sourceId: string; endpointIds: string[] };

/**
 * The statement that ingests stored messages again as new ones (new ids, replay_of_id = the
 * source, payload copied in SQL so it never travels through the process), each with a pending
 * delivery per endpoint; for the caller's transaction. A source whose payload is gone meanwhile
 * is skipped, with its deliveries. `taskId`: the range-replay task making the copies (its progress
 * and its cancel find them by it). Answers one row: `messages` and `deliveries` inserted.
 */
export function copyMessagesSql(
  copies: MessageCopy[],
  taskId: string | null = null,
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
              m.payload_retention_days, m.id, now(), $6::text
       FROM unnest($1::text[], $2::text[]) AS n(id, src)
       JOIN message m ON m.id = n.src
       WHERE m.payload IS NOT NULL
       ${RETURNING}
     )${deliveriesAndCounts("$3", "$4", "$5")}`;
  const values = [copies.map((c) => c.id), copies.map((c) => c.sourceId), deliveryIds, endpointIds, messageIds, taskId];
  return { text, values, deliveryIds };
}
