import { z } from "zod";
import { ApplicationIn } from "../applications/schemas";
import { zFeatureFlag, zUniqueList } from "../http/fields";
import { SVIX_CAPABILITIES } from "./capabilities";

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
  /**
   * Svix's capabilities (lib/portal-access/capabilities.ts); absent: all of them, or the two
   * views when read-only. ViewBase is required: a link that can see nothing opens nothing.
   */
  capabilities: zUniqueList(z.enum(SVIX_CAPABILITIES, { error: `must be one of ${SVIX_CAPABILITIES.join(", ")}` }))
    .refine((c) => c.includes("ViewBase"), "must include ViewBase")
    .nullish(),
});
export type AppPortalAccessIn = z.infer<typeof AppPortalAccessIn>;

/** POST /api/v1/auth/portal-session: the magic-link token to exchange. */
export const PortalSessionIn = z.object({ token: z.string().min(1).max(512) });
