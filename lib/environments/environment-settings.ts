import { z } from "zod";
import { db } from "../db";
import { env } from "../env";
import type { Scope } from "../auth/principal";
import { zRetrySchedule } from "../endpoints/schemas";
import { DEFAULT_RETRY_SCHEDULE, resolveSchedule } from "../delivery/retry-schedule";

// Settings of the calling operator's environment (Herald extension). Today: the retry schedule
// that endpoints without one of their own follow, between an endpoint's schedule and the
// platform default (HERALD_RETRY_SCHEDULE, else 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h).

export const EnvironmentSettingsPatch = z.object({
  /** Seconds between retries; null or [] for the platform default. */
  retrySchedule: zRetrySchedule.nullable(),
});
export type EnvironmentSettingsPatch = z.infer<typeof EnvironmentSettingsPatch>;

/** What an endpoint without its own schedule follows (the platform default as this process reads it). */
export function environmentSchedule(retrySchedule: number[]): number[] {
  return resolveSchedule([], retrySchedule, env().HERALD_RETRY_SCHEDULE ?? DEFAULT_RETRY_SCHEDULE);
}

function settingsOut(row: { retrySchedule: number[] }) {
  return {
    retrySchedule: row.retrySchedule.length > 0 ? row.retrySchedule : null,
    effectiveRetrySchedule: environmentSchedule(row.retrySchedule),
  };
}

export async function getEnvironmentSettings(scope: Scope) {
  const row = await db.environment.findUniqueOrThrow({ where: { id: scope.environmentId }, select: { retrySchedule: true } });
  return settingsOut(row);
}

/** Applies to attempts scheduled from now on; retries already scheduled keep their time. */
export async function updateEnvironmentSettings(scope: Scope, patch: EnvironmentSettingsPatch) {
  const row = await db.environment.update({
    where: { id: scope.environmentId },
    data: { retrySchedule: patch.retrySchedule ?? [] },
    select: { retrySchedule: true },
  });
  return settingsOut(row);
}
