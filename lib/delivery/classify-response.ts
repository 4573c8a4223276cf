import type { AttemptResult } from "./http-client";

// What an answer means for the delivery. Every attempt is recorded first; this decides the rest.
//   2xx                        success, stop
//   410 Gone                   the receiver says the endpoint is gone: disable it now, dead-letter
//   429, 503                   retry on the schedule, honouring Retry-After
//   other 4xx except 408       not retryable: dead-letter at once
//   3xx                        failure (redirects are never followed), retried like 5xx
//   5xx, 408, timeouts, connection/DNS/TLS errors, blocked addresses: retry on the schedule

export type Verdict =
  | { kind: "success" }
  | { kind: "retry"; honourRetryAfter: boolean }
  | { kind: "dead"; reason: string }
  | { kind: "gone" };

export const RETRY_AFTER_STATUSES = new Set([429, 503]);

export function classify(result: Pick<AttemptResult, "status">): Verdict {
  const s = result.status;
  if (s >= 200 && s < 300) return { kind: "success" };
  if (s === 410) return { kind: "gone" };
  if (RETRY_AFTER_STATUSES.has(s)) return { kind: "retry", honourRetryAfter: true };
  if (s >= 400 && s < 500 && s !== 408) return { kind: "dead", reason: `http_${s}` };
  return { kind: "retry", honourRetryAfter: false };
}
