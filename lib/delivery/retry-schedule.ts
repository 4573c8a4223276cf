import { RETRY_SCHEDULE_BOUNDS } from "../endpoints/schemas";

// When a failed delivery is tried again. The first attempt is immediate; the schedule lists the
// delays (seconds) before each retry. 8 attempts over about 27.5 hours by default.

export const DEFAULT_RETRY_SCHEDULE = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600];

/** Each delay is spread ±20% so that retries of a burst do not arrive together. */
export const RETRY_JITTER = 0.2;

/** A Retry-After answer is honoured up to a day (a longer one is read as a day). */
export const RETRY_AFTER_CAP_MS = 24 * 3600 * 1000;

/**
 * The schedule that applies: the endpoint's own, else the environment's, else the platform's
 * (HERALD_RETRY_SCHEDULE, else the default). Overrides are clamped to RETRY_SCHEDULE_BOUNDS.
 */
export function resolveSchedule(endpoint: number[], environment: number[], platform: number[] | undefined): number[] {
  const chosen = endpoint.length > 0 ? endpoint : environment.length > 0 ? environment : null;
  if (!chosen) return platform ?? DEFAULT_RETRY_SCHEDULE;
  const { maxAttempts, minDelaySeconds, maxDelaySeconds } = RETRY_SCHEDULE_BOUNDS;
  return chosen.slice(0, maxAttempts - 1).map((s) => Math.min(maxDelaySeconds, Math.max(minDelaySeconds, s)));
}

/**
 * The delay before the next attempt after `failedAttempts` scheduled attempts failed, with
 * jitter; null when the schedule is exhausted.
 */
export function scheduledDelayMs(schedule: number[], failedAttempts: number, random = Math.random): number | null {
  const seconds = schedule[failedAttempts - 1];
  if (seconds === undefined) return null;
  return Math.round(seconds * 1000 * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
}

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/**
 * The delay after a 429 or 503 that asked for `retryAfterMs` (parsed; null when absent or
 * unreadable). The receiver knows better than our curve when it can take traffic again, so the
 * next attempt is never earlier than it asked: its Retry-After (up to RETRY_AFTER_CAP_MS) plus up
 * to RETRY_JITTER of it (jitter only adds, so a burst of throttled deliveries does not come back
 * in one instant), or the scheduled delay when that is later. `honouredMs` is what the attempt
 * records: the Retry-After that bounded the delay, after the cap.
 */
export function applyRetryAfter(
  scheduledMs: number,
  retryAfterMs: number | null,
  random = Math.random,
): { delayMs: number; honouredMs: number | null } {
  if (retryAfterMs === null) return { delayMs: scheduledMs, honouredMs: null };
  const honouredMs = Math.min(retryAfterMs, RETRY_AFTER_CAP_MS);
  const jittered = Math.min(RETRY_AFTER_CAP_MS, Math.round(honouredMs * (1 + RETRY_JITTER * random())));
  return { delayMs: Math.max(scheduledMs, Math.max(honouredMs, jittered)), honouredMs };
}
