import type { CircuitState, DeliveryStatus, EndpointNotice, EndpointState } from "../generated/prisma/client";
import type { ClaimedDelivery } from "./claim-deliveries";
import type { AttemptResult } from "./http-client";
import { CIRCUIT_OPEN_AFTER_FAILURES } from "./circuit-breaker";
import { iso, query } from "../sql";

// Writes a batch of finished attempts in one statement: each attempt row, its delivery's next
// state (compare-and-set on the claim's lease, so a claim that was taken over cannot overwrite
// the newer one) and the endpoints' health counters. The attempt and the state it leads to are
// one atomic write: there is never a state change without the attempt that caused it.

export type DeliveryNext = {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  deadReason: string | null;
  deadAt: Date | null;
  /** The Retry-After (ms, capped) this next attempt waits for; recorded on the attempt. */
  retryAfterMs?: number;
};

export type AttemptRecord = {
  delivery: ClaimedDelivery;
  attemptId: string;
  attemptedAt: Date;
  requestHeaders: Record<string, string>;
  requestBody: string;
  result: AttemptResult;
  success: boolean;
  next: DeliveryNext;
};

export type EndpointHealth = {
  id: string;
  state: EndpointState;
  circuitState: CircuitState;
  circuitOpenedAt: Date | null;
  consecutiveFailures: number;
  failingSince: Date | null;
  /** What the application's members were last told about it (lib/notifications/); not changed here. */
  noticeState: EndpointNotice;
};

export type RecordOutcome = {
  /** false when the claim had been taken over: the attempt is stored, the delivery left alone. */
  applied: boolean;
  /** The endpoint's health after this batch, when it changed. */
  endpoint: EndpointHealth | null;
};

/** A healthy endpoint's last_success_at is refreshed at most this often (one hot row otherwise). */
const LAST_SUCCESS_PRECISION_S = 5;

// Parameters: $1-$20 the attempts' columns, $21-$26 the deliveries' next states, $27-$31 the
// endpoints' health in this batch, $32 now, $33 "last success is stale before", $34 the breaker threshold,
// $35 the Retry-After each attempt's next state honours.
const RECORD_SQL = `
  WITH ins AS (
    INSERT INTO attempt (id, environment_id, application_id, endpoint_id, message_id, delivery_id, event_type, url, status,
                         trigger_type, request_headers, request_body, response_status, response_headers, response_body,
                         response_truncated, duration_ms, error_class, error_message, created_at, retry_after_ms)
    SELECT v.id, v.env, v.app, v.ep, v.msg, v.dlv, v.type, v.url, v.status::"AttemptStatus", v.trig::"TriggerType",
           v.req_headers::jsonb, v.req_body, v.res_status, v.res_headers::jsonb, v.res_body, v.truncated, v.duration,
           v.err_class, v.err_message, v.at::timestamptz, v.retry_after
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                $10::text[], $11::text[], $12::text[], $13::int[], $14::text[], $15::text[], $16::bool[], $17::int[],
                $18::text[], $19::text[], $20::text[], $35::int[])
      AS v(id, env, app, ep, msg, dlv, type, url, status, trig, req_headers, req_body, res_status, res_headers, res_body,
           truncated, duration, err_class, err_message, at, retry_after)
  ),
  upd AS (
    UPDATE delivery dl
    SET status = v.status::"DeliveryStatus",
        next_attempt_at = v.next::timestamptz,
        attempt_count = dl.attempt_count + 1,
        last_attempt_at = v.at::timestamptz,
        last_status_code = v.code,
        dead_reason = v.dead,
        dead_at = v.dead_at::timestamptz,
        updated_at = $32::timestamptz
    FROM unnest($6::text[], $21::text[], $22::text[], $23::text[], $24::text[], $25::text[], $26::int[], $20::text[])
      AS v(id, lease, status, next, dead, dead_at, code, at)
    WHERE dl.id = v.id AND dl.status = 'sending' AND dl.next_attempt_at = v.lease::timestamptz
    RETURNING dl.id
  ),
  eh AS (
    UPDATE endpoint ep
    SET consecutive_failures = CASE WHEN h.success THEN 0 ELSE ep.consecutive_failures + h.failures END,
        failing_since = CASE WHEN h.success THEN NULL
                             ELSE COALESCE(ep.failing_since, h.first_fail::timestamptz) END,
        last_success_at = CASE WHEN h.success THEN h.at::timestamptz ELSE ep.last_success_at END,
        circuit_state = CASE WHEN h.success THEN 'closed'::"CircuitState"
                             WHEN ep.consecutive_failures + h.failures >= $34 THEN 'open'::"CircuitState"
                             ELSE ep.circuit_state END,
        circuit_opened_at = CASE WHEN h.success THEN NULL
                                 WHEN ep.consecutive_failures + h.failures >= $34 THEN h.at::timestamptz
                                 ELSE ep.circuit_opened_at END,
        -- An explicitly asked probe is spent once the circuit closes or (the probe failed) re-opens.
        circuit_probe_at = CASE WHEN h.success OR ep.consecutive_failures + h.failures >= $34 THEN NULL
                                ELSE ep.circuit_probe_at END
    FROM unnest($27::text[], $28::bool[], $29::int[], $30::text[], $31::text[]) AS h(id, success, failures, first_fail, at)
    WHERE ep.id = h.id
      AND (NOT h.success OR ep.consecutive_failures > 0 OR ep.circuit_state <> 'closed' OR ep.failing_since IS NOT NULL
           OR ep.last_success_at IS NULL OR ep.last_success_at < $33::timestamptz)
    RETURNING ep.id, ep.state, ep.circuit_state, ep.circuit_opened_at, ep.consecutive_failures, ep.failing_since, ep.notice_state
  )
  SELECT 'd' AS kind, id, NULL::"EndpointState" AS state, NULL::"CircuitState" AS circuit_state,
         NULL::timestamptz AS circuit_opened_at, NULL::int AS consecutive_failures, NULL::timestamptz AS failing_since,
         NULL::"EndpointNotice" AS notice_state
  FROM upd
  UNION ALL
  SELECT 'e', id, state, circuit_state, circuit_opened_at, consecutive_failures, failing_since, notice_state FROM eh`;

export async function recordAttempts(items: AttemptRecord[]): Promise<RecordOutcome[]> {
  const now = new Date();
  // Attempts.
  const a = {
    id: items.map((i) => i.attemptId),
    env: items.map((i) => i.delivery.environmentId),
    app: items.map((i) => i.delivery.applicationId),
    ep: items.map((i) => i.delivery.endpointId),
    msg: items.map((i) => i.delivery.messageId),
    dlv: items.map((i) => i.delivery.id),
    type: items.map((i) => i.delivery.eventType),
    url: items.map((i) => i.delivery.endpoint.url),
    status: items.map((i) => (i.success ? "success" : "fail")),
    trigger: items.map((i) => i.delivery.trigger),
    reqHeaders: items.map((i) => JSON.stringify(i.requestHeaders)),
    reqBody: items.map((i) => i.requestBody),
    resStatus: items.map((i) => i.result.status),
    resHeaders: items.map((i) => (i.result.headers ? JSON.stringify(i.result.headers) : null)),
    resBody: items.map((i) => i.result.body),
    truncated: items.map((i) => i.result.truncated),
    duration: items.map((i) => i.result.durationMs),
    errClass: items.map((i) => i.result.errorClass),
    errMessage: items.map((i) => i.result.errorMessage),
    at: items.map((i) => i.attemptedAt.toISOString()),
    retryAfter: items.map((i) => i.next.retryAfterMs ?? null),
  };
  // Deliveries.
  const d = {
    lease: items.map((i) => i.delivery.lease.toISOString()),
    status: items.map((i) => i.next.status),
    next: items.map((i) => iso(i.next.nextAttemptAt)),
    dead: items.map((i) => i.next.deadReason),
    deadAt: items.map((i) => iso(i.next.deadAt)),
    code: items.map((i) => (i.result.status > 0 ? i.result.status : null)),
  };
  // Endpoints: the batch's results in order decide each endpoint's counters.
  const health = new Map<string, { success: boolean; failures: number; firstFailAt: Date | null; at: Date }>();
  for (const i of items) {
    const h = health.get(i.delivery.endpointId) ?? {
      success: false,
      failures: 0,
      firstFailAt: null,
      at: i.attemptedAt,
    };
    if (i.success) Object.assign(h, { success: true, failures: 0, firstFailAt: null, at: i.attemptedAt });
    else
      Object.assign(h, {
        success: false,
        failures: h.failures + 1,
        firstFailAt: h.firstFailAt ?? i.attemptedAt,
        at: i.attemptedAt,
      });
    health.set(i.delivery.endpointId, h);
  }
  const e = {
    id: [...health.keys()],
    success: [...health.values()].map((h) => h.success),
    failures: [...health.values()].map((h) => h.failures),
    firstFail: [...health.values()].map((h) => iso(h.firstFailAt)),
    at: [...health.values()].map((h) => h.at.toISOString()),
  };
  const staleSuccess = new Date(now.getTime() - LAST_SUCCESS_PRECISION_S * 1000);

  const rows = await query<{
    kind: "d" | "e";
    id: string;
    state: EndpointState | null;
    circuit_state: CircuitState | null;
    circuit_opened_at: Date | null;
    consecutive_failures: number | null;
    failing_since: Date | null;
    notice_state: EndpointNotice | null;
  }>("herald_record_attempts", RECORD_SQL, [
    a.id,
    a.env,
    a.app,
    a.ep,
    a.msg,
    a.dlv,
    a.type,
    a.url,
    a.status,
    a.trigger,
    a.reqHeaders,
    a.reqBody,
    a.resStatus,
    a.resHeaders,
    a.resBody,
    a.truncated,
    a.duration,
    a.errClass,
    a.errMessage,
    a.at,
    d.lease,
    d.status,
    d.next,
    d.dead,
    d.deadAt,
    d.code,
    e.id,
    e.success,
    e.failures,
    e.firstFail,
    e.at,
    iso(now),
    iso(staleSuccess),
    CIRCUIT_OPEN_AFTER_FAILURES,
    a.retryAfter,
  ]);

  const applied = new Set<string>();
  const endpoints = new Map<string, EndpointHealth>();
  for (const r of rows) {
    if (r.kind === "d") applied.add(r.id);
    else
      endpoints.set(r.id, {
        id: r.id,
        state: r.state!,
        circuitState: r.circuit_state!,
        circuitOpenedAt: r.circuit_opened_at,
        consecutiveFailures: r.consecutive_failures ?? 0,
        failingSince: r.failing_since,
        noticeState: r.notice_state ?? "ok",
      });
  }
  return items.map((i) => ({
    applied: applied.has(i.delivery.id),
    endpoint: endpoints.get(i.delivery.endpointId) ?? null,
  }));
}
