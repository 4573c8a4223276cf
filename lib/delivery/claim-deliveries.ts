import { newId } from "../ids";
import { iso, query } from "../sql";
import type {
  CircuitState,
  DeliveryStatus,
  EndpointState,
  PayloadFormat,
  SigningAlgorithm,
} from "../generated/prisma/client";

// Taking a delivery for an attempt is a compare-and-set on its status, so one delivery is never
// attempted twice at the same time (a live job, a stalled copy, the sweeper, a manual resend):
//   pending (due)                   -> sending   scheduled and manual jobs
//   failed | succeeded | canceled   -> sending   manual jobs only (resend after the fact)
//   sending, lease expired          -> sending   a worker died mid-attempt: its attempt is
//                                                recorded as "interrupted" and the delivery retried
// While `sending`, next_attempt_at holds the claim's lease expiry; it also identifies the claim
// in the compare-and-set that records the outcome. Many claims share one SQL statement.

export type Trigger = "scheduled" | "manual";

/** How early a scheduled job may run before its due time (clock skew between processes). */
const DUE_TOLERANCE_MS = 1_000;

export const INTERRUPTED_MESSAGE =
  "the worker stopped during this attempt (crash or kill); its outcome is unknown, so the delivery is attempted again";

export type ClaimedDelivery = {
  id: string;
  environmentId: string;
  applicationId: string;
  endpointId: string;
  messageId: string;
  eventType: string;
  trigger: Trigger;
  lease: Date;
  /** Status before this claim (for a manual attempt, what to go back to when it fails). */
  prevStatus: DeliveryStatus;
  prevNextAt: Date | null;
  prevDeadReason: string | null;
  prevDeadAt: Date | null;
  /** The claim took over from a worker that died mid-attempt (an interrupted attempt was recorded). */
  takeover: boolean;
  /** All attempts so far (including an interrupted one just recorded). */
  attemptCount: number;
  /** Scheduled attempts so far: the position in the retry schedule. */
  scheduledAttempts: number;
  /**
   * Scheduled attempts so far that ran to an outcome, i.e. all but the interrupted ones (a worker
   * died mid-attempt). Operational events count these: an interrupted attempt never passes through
   * afterAttempt, so counting it would skip the threshold it landed on.
   */
  finishedScheduled: number;
  endpoint: {
    id: string;
    uid: string | null;
    url: string;
    state: EndpointState;
    circuitState: CircuitState;
    circuitOpenedAt: Date | null;
    circuitProbeAt: Date | null;
    consecutiveFailures: number;
    failingSince: Date | null;
    throttleRate: number | null;
    retrySchedule: number[];
    signingAlgorithm: SigningAlgorithm;
    secretEncrypted: string;
    previousSecretEncrypted: string | null;
    previousSecretExpiresAt: Date | null;
    headersEncrypted: string | null;
  };
  message: {
    id: string;
    eventType: string;
    eventId: string | null;
    payload: unknown;
    previous: unknown;
    createdAt: Date;
  };
  app: { uid: string | null; payloadFormat: PayloadFormat; throttleRate: number | null; internal: boolean };
  environmentRetrySchedule: number[];
};

export type ClaimResult =
  | { kind: "claimed"; delivery: ClaimedDelivery }
  /** The delivery no longer exists (its endpoint or message was deleted). */
  | { kind: "missing" }
  /** Nothing to do for this job: already finished, or (scheduled) not in a state to attempt. */
  | { kind: "done"; status: DeliveryStatus }
  /** A scheduled job woke before the delivery's next attempt is due. */
  | { kind: "not_due"; at: Date }
  /** Another worker holds a live claim until `until`. */
  | { kind: "busy"; until: Date };

type Row = {
  id: string;
  prev_status: DeliveryStatus;
  prev_next_at: Date | null;
  claimed: boolean;
  environment_id: string;
  application_id: string;
  endpoint_id: string;
  message_id: string;
  event_type: string;
  attempt_count: number;
  dead_reason: string | null;
  dead_at: Date | null;
  scheduled_attempts: number | null;
  finished_scheduled: number | null;
  ep_uid: string | null;
  url: string | null;
  ep_state: EndpointState | null;
  circuit_state: CircuitState | null;
  circuit_opened_at: Date | null;
  circuit_probe_at: Date | null;
  consecutive_failures: number | null;
  failing_since: Date | null;
  ep_throttle: number | null;
  ep_schedule: number[] | null;
  signing_algorithm: SigningAlgorithm | null;
  secret_encrypted: string | null;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: Date | null;
  headers_encrypted: string | null;
  msg_event_id: string | null;
  payload: unknown;
  previous: unknown;
  msg_created_at: Date | null;
  app_uid: string | null;
  payload_format: PayloadFormat | null;
  app_throttle: number | null;
  internal: boolean | null;
  env_schedule: number[] | null;
};

// $1 ids, $2 triggers, $3 attempt ids (for interrupted attempts), $4 lease, $5 now, $6 due-by,
// $7 the interrupted attempt's message.
const CLAIM_SQL = `
  WITH j AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) AS j(id, trig, attempt_id)
  ),
  old AS (
    SELECT d.id, d.status, d.next_attempt_at, j.trig, j.attempt_id
    FROM delivery d JOIN j ON j.id = d.id
    ORDER BY d.id
    FOR UPDATE OF d
  ),
  claimed AS (
    UPDATE delivery d
    SET status = 'sending', next_attempt_at = $4::timestamptz, updated_at = $5::timestamptz,
        attempt_count = d.attempt_count + CASE WHEN old.status = 'sending' THEN 1 ELSE 0 END
    FROM old
    WHERE d.id = old.id AND (
         (old.status = 'pending' AND (old.trig = 'manual' OR old.next_attempt_at IS NULL
                                      OR old.next_attempt_at <= $6::timestamptz))
      OR (old.status = 'sending' AND old.next_attempt_at < $5::timestamptz)
      OR (old.trig = 'manual' AND old.status IN ('failed', 'succeeded', 'canceled'))
    )
    RETURNING d.id
  ),
  interrupted AS (
    INSERT INTO attempt (id, environment_id, application_id, endpoint_id, message_id, delivery_id, event_type, url,
                         status, trigger_type, request_headers, response_status, duration_ms, error_class, error_message, created_at)
    SELECT old.attempt_id, d.environment_id, d.application_id, d.endpoint_id, d.message_id, d.id, d.event_type, e.url,
           'fail', 'scheduled', '{}'::jsonb, 0, 0, 'interrupted', $7, $5::timestamptz
    FROM old
    JOIN claimed c ON c.id = old.id
    JOIN delivery d ON d.id = old.id
    JOIN endpoint e ON e.id = d.endpoint_id
    WHERE old.status = 'sending'
  )
  SELECT old.id, old.status AS prev_status, old.next_attempt_at AS prev_next_at, (c.id IS NOT NULL) AS claimed,
         d.environment_id, d.application_id, d.endpoint_id, d.message_id, d.event_type, d.attempt_count,
         d.dead_reason, d.dead_at,
         sa.scheduled_attempts, sa.finished_scheduled,
         e.uid AS ep_uid, e.url, e.state AS ep_state, e.circuit_state, e.circuit_opened_at, e.circuit_probe_at,
         e.consecutive_failures,
         e.failing_since, e.throttle_rate AS ep_throttle, e.retry_schedule AS ep_schedule, e.signing_algorithm,
         e.secret_encrypted, e.previous_secret_encrypted, e.previous_secret_expires_at, e.headers_encrypted,
         m.event_id AS msg_event_id, m.payload, m.previous, m.created_at AS msg_created_at,
         a.uid AS app_uid, a.payload_format, a.throttle_rate AS app_throttle, a.internal,
         env.retry_schedule AS env_schedule
  FROM old
  JOIN delivery d ON d.id = old.id
  LEFT JOIN claimed c ON c.id = old.id
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS scheduled_attempts,
           count(*) FILTER (WHERE at.error_class IS DISTINCT FROM 'interrupted')::int AS finished_scheduled
    FROM attempt at WHERE c.id IS NOT NULL AND at.delivery_id = old.id AND at.trigger_type = 'scheduled'
  ) sa ON true
  LEFT JOIN endpoint e ON c.id IS NOT NULL AND e.id = d.endpoint_id
  LEFT JOIN message m ON c.id IS NOT NULL AND m.id = d.message_id
  LEFT JOIN application a ON c.id IS NOT NULL AND a.id = d.application_id
  LEFT JOIN environment env ON c.id IS NOT NULL AND env.id = d.environment_id`;

export type ClaimRequest = { deliveryId: string; trigger: Trigger };

/** Claims a batch of deliveries in one statement; results are in input order. */
export async function claimDeliveries(requests: ClaimRequest[], leaseMs: number): Promise<ClaimResult[]> {
  // A delivery may appear twice in one batch (a manual and a scheduled job): only the first claims.
  const seen = new Map<string, number>();
  const unique: ClaimRequest[] = [];
  for (const r of requests) {
    if (!seen.has(r.deliveryId)) {
      seen.set(r.deliveryId, unique.length);
      unique.push(r);
    }
  }
  const now = new Date();
  const lease = new Date(now.getTime() + leaseMs);
  const dueBy = new Date(now.getTime() + DUE_TOLERANCE_MS);
  const ids = unique.map((r) => r.deliveryId);
  const triggers = unique.map((r) => r.trigger);
  const attemptIds = unique.map(() => newId("attempt"));

  const rows = await query<Row>("herald_claim_deliveries", CLAIM_SQL, [
    ids,
    triggers,
    attemptIds,
    iso(lease),
    iso(now),
    iso(dueBy),
    INTERRUPTED_MESSAGE,
  ]);

  const byId = new Map(rows.map((r) => [r.id, r]));
  const results = unique.map((req): ClaimResult => toResult(req, byId.get(req.deliveryId), lease, now));
  return requests.map((r) => {
    const first = seen.get(r.deliveryId)!;
    const res = results[first]!;
    // A later duplicate within the batch sees the first one's claim as a live claim.
    if (unique[first] !== r && res.kind === "claimed") return { kind: "busy", until: lease };
    return res;
  });
}

function toResult(req: ClaimRequest, row: Row | undefined, lease: Date, now: Date): ClaimResult {
  if (!row) return { kind: "missing" };
  if (!row.claimed) {
    if (row.prev_status === "sending") return { kind: "busy", until: row.prev_next_at ?? lease };
    if (row.prev_status === "pending" && row.prev_next_at && row.prev_next_at > now)
      return { kind: "not_due", at: row.prev_next_at };
    return { kind: "done", status: row.prev_status };
  }
  const takeover = row.prev_status === "sending";
  return {
    kind: "claimed",
    delivery: {
      id: row.id,
      environmentId: row.environment_id,
      applicationId: row.application_id,
      endpointId: row.endpoint_id,
      messageId: row.message_id,
      eventType: row.event_type,
      trigger: req.trigger,
      lease,
      prevStatus: row.prev_status,
      prevNextAt: row.prev_next_at,
      prevDeadReason: row.dead_reason,
      prevDeadAt: row.dead_at,
      takeover,
      attemptCount: row.attempt_count + (takeover ? 1 : 0),
      scheduledAttempts: (row.scheduled_attempts ?? 0) + (takeover ? 1 : 0),
      finishedScheduled: row.finished_scheduled ?? 0,
      endpoint: {
        id: row.endpoint_id,
        uid: row.ep_uid,
        url: row.url!,
        state: row.ep_state!,
        circuitState: row.circuit_state!,
        circuitOpenedAt: row.circuit_opened_at,
        circuitProbeAt: row.circuit_probe_at,
        consecutiveFailures: row.consecutive_failures ?? 0,
        failingSince: row.failing_since,
        throttleRate: row.ep_throttle,
        retrySchedule: row.ep_schedule ?? [],
        signingAlgorithm: row.signing_algorithm!,
        secretEncrypted: row.secret_encrypted!,
        previousSecretEncrypted: row.previous_secret_encrypted,
        previousSecretExpiresAt: row.previous_secret_expires_at,
        headersEncrypted: row.headers_encrypted,
      },
      message: {
        id: row.message_id,
        eventType: row.event_type,
        eventId: row.msg_event_id,
        payload: row.payload,
        previous: row.previous,
        createdAt: row.msg_created_at!,
      },
      app: {
        uid: row.app_uid,
        payloadFormat: row.payload_format!,
        throttleRate: row.app_throttle,
        internal: row.internal ?? false,
      },
      environmentRetrySchedule: row.env_schedule ?? [],
    },
  };
}

const UNCLAIM_SQL = `
  UPDATE delivery d
  SET status = v.status::"DeliveryStatus",
      next_attempt_at = v.next_at::timestamptz,
      updated_at = $5::timestamptz
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS v(id, status, next_at, lease)
  WHERE d.id = v.id AND d.status = 'sending' AND d.next_attempt_at = v.lease::timestamptz`;

export type ReleaseRequest = { delivery: ClaimedDelivery };

/**
 * Gives claims back without an attempt (the endpoint is at its in-flight cap, throttled, or its
 * circuit is open): the delivery returns to the status it had, still due.
 */
export async function unclaimDeliveries(items: ReleaseRequest[]): Promise<void[]> {
  const now = new Date();
  const ids = items.map((i) => i.delivery.id);
  const leases = items.map((i) => i.delivery.lease.toISOString());
  const statuses = items.map((i) => (i.delivery.prevStatus === "sending" ? "pending" : i.delivery.prevStatus));
  const nextAts = items.map((i) => {
    const d = i.delivery;
    if (d.prevStatus === "sending") return now.toISOString();
    return d.prevNextAt ? d.prevNextAt.toISOString() : null;
  });
  await query("herald_unclaim_deliveries", UNCLAIM_SQL, [ids, statuses, nextAts, leases, iso(now)]);
  return items.map(() => undefined);
}
