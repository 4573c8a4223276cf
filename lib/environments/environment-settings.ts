import { z } from "zod";
import { db } from "../db";
import { env } from "../env";
import type { Scope } from "../auth/principal";
import { zRetrySchedule } from "../endpoints/schemas";
import { DEFAULT_RETRY_SCHEDULE, resolveSchedule } from "../delivery/retry-schedule";
import { brandingOut, mergeBranding, PortalBranding } from "../portal/branding";
import { forgetEmbedOrigins, frameAncestors, zEmbedOrigins } from "./portal-embedding";
import type { Prisma } from "../generated/prisma/client";

// Settings of the calling operator's environment (Herald extension). Today: the retry schedule
// that endpoints without one of their own follow, between an endpoint's schedule and the
// platform default (HERALD_RETRY_SCHEDULE, else 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h);
// the consumer portal's branding; and the origins allowed to embed the portal besides the
// server-wide HERALD_PORTAL_FRAME_ANCESTORS (portal-embedding.ts). A PATCH changes only the
// fields it names.

export const EnvironmentSettingsPatch = z.object({
  /** Seconds between retries; null or [] for the platform default. */
  retrySchedule: zRetrySchedule.nullable().optional(),
  /** Merged into the stored branding: fields left out stay, null removes one. */
  portalBranding: PortalBranding.optional(),
  /** Origins (https://dashboard.example.com) that may frame this environment's portal; null or [] for none. */
  portalEmbedOrigins: zEmbedOrigins.nullable().optional(),
}).refine((p) => p.retrySchedule !== undefined || p.portalBranding !== undefined || p.portalEmbedOrigins !== undefined, {
  // Reported at retrySchedule, the setting most clients mean; an empty PATCH is a mistake.
  path: ["retrySchedule"],
  message: "give at least one setting to change: retrySchedule, portalBranding or portalEmbedOrigins",
});
export type EnvironmentSettingsPatch = z.infer<typeof EnvironmentSettingsPatch>;

/** What an endpoint without its own schedule follows (the platform default as this process reads it). */
export function environmentSchedule(retrySchedule: number[]): number[] {
  return resolveSchedule([], retrySchedule, env().HERALD_RETRY_SCHEDULE ?? DEFAULT_RETRY_SCHEDULE);
}

const SELECT = { retrySchedule: true, portalBranding: true, portalEmbedOrigins: true } as const;

function settingsOut(row: { retrySchedule: number[]; portalBranding: unknown; portalEmbedOrigins: string[] }) {
  return {
    retrySchedule: row.retrySchedule.length > 0 ? row.retrySchedule : null,
    effectiveRetrySchedule: environmentSchedule(row.retrySchedule),
    portalBranding: brandingOut(row.portalBranding),
    portalEmbedOrigins: row.portalEmbedOrigins,
    // What a portal page opened with ?env=<this environment> is sent, so the console can show it.
    portalFrameAncestors: frameAncestors(env().HERALD_PORTAL_FRAME_ANCESTORS, row.portalEmbedOrigins),
  };
}

export async function getEnvironmentSettings(scope: Scope) {
  const row = await db.environment.findUniqueOrThrow({ where: { id: scope.environmentId }, select: SELECT });
  return settingsOut(row);
}

/** A new schedule applies to attempts scheduled from now on; retries already scheduled keep their time. */
export async function updateEnvironmentSettings(scope: Scope, patch: EnvironmentSettingsPatch) {
  const data: Prisma.EnvironmentUpdateInput = {};
  if (patch.retrySchedule !== undefined) data.retrySchedule = patch.retrySchedule ?? [];
  if (patch.portalEmbedOrigins !== undefined) data.portalEmbedOrigins = patch.portalEmbedOrigins ?? [];
  // Read-merge-write of the branding in one transaction so two PATCHes of different fields both stick.
  const row =
    patch.portalBranding === undefined
      ? await db.environment.update({ where: { id: scope.environmentId }, data, select: SELECT })
      : await db.$transaction(async (tx) => {
          const current = await tx.$queryRaw<{ portal_branding: unknown }[]>`
            SELECT portal_branding FROM environment WHERE id = ${scope.environmentId} FOR UPDATE`;
          data.portalBranding = mergeBranding(current[0]?.portal_branding, patch.portalBranding!);
          return tx.environment.update({ where: { id: scope.environmentId }, data, select: SELECT });
        });
  // This process's portal pages use the new origins at once (others within EMBED_ORIGINS_TTL_MS).
  if (patch.portalEmbedOrigins !== undefined) forgetEmbedOrigins(scope.environmentId);
  return settingsOut(row);
}
