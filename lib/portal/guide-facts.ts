import { env } from "../env";
import { environmentSchedule } from "../environments/environment-settings";
import { TOLERANCE_SECONDS } from "./verify-snippets";

export type GuideFacts = {
  /** Seconds between attempts after the first (the schedule an endpoint without its own follows). */
  retrySchedule: number[];
  requestTimeoutMs: number;
  connectTimeoutMs: number;
  deadLetterRetentionDays: number;
  autoDisableAfterHours: number;
  signatureToleranceSeconds: number;
  /** This server's address, for the herald listen command. */
  heraldUrl: string;
};

// The numbers the integrator guide states, from the settings that enforce them. `retrySchedule`
// is the environment's when known (the portal), else the platform default (the public page).
export function guideFacts(environmentRetrySchedule: number[] = []): GuideFacts {
  const cfg = env();
  return {
    retrySchedule: environmentSchedule(environmentRetrySchedule),
    requestTimeoutMs: cfg.HERALD_REQUEST_TIMEOUT_MS,
    connectTimeoutMs: cfg.HERALD_CONNECT_TIMEOUT_MS,
    deadLetterRetentionDays: cfg.HERALD_DEAD_LETTER_RETENTION_DAYS,
    autoDisableAfterHours: cfg.HERALD_AUTO_DISABLE_AFTER_HOURS,
    signatureToleranceSeconds: TOLERANCE_SECONDS,
    heraldUrl: cfg.HERALD_PUBLIC_URL.replace(/\/+$/, ""),
  };
}
