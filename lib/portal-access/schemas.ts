import { z } from "zod";
import { ApplicationIn } from "../applications/schemas";
import { zFeatureFlag, zUniqueList } from "../http/fields";

export const PORTAL_TOKEN_DEFAULT_TTL_S = 7 * 24 * 3600;
export const PORTAL_TOKEN_MAX_TTL_S = 30 * 24 * 3600;

export const AppPortalAccessIn = z.object({
  application: ApplicationIn.nullish(),
  featureFlags: zUniqueList(zFeatureFlag).default([]),
  /** Seconds the link stays valid (default 7 days, at most 30). */
  expiry: z.number().int().min(60).max(PORTAL_TOKEN_MAX_TTL_S).nullish(),
  readOnly: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
});
export type AppPortalAccessIn = z.infer<typeof AppPortalAccessIn>;

/** POST /api/v1/auth/portal-session: the magic-link token to exchange. */
export const PortalSessionIn = z.object({ token: z.string().min(1).max(512) });
