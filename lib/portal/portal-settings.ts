import { db } from "../db";
import type { Scope } from "../auth/principal";
import { RETRY_SCHEDULE_BOUNDS } from "../endpoints/schemas";
import { DEFAULT_ROTATION_GRACE_SECONDS } from "../endpoints/endpoint-secrets";
import { environmentSchedule } from "../environments/environment-settings";
import { brandingOut } from "./branding";
import { SIGNATURE_HEADERS } from "../signing/sign";
import { TOLERANCE_SECONDS, type SignatureHeaders } from "./verify-snippets";
import { guideFacts } from "./guide-facts";

// The platform facts the portal's forms and pages show, read from the modules that enforce
// them, so the UI never states a bound, a schedule or a header name the server does not use.

export async function portalSettings(scope: Scope) {
  const environment = await db.environment.findUnique({ where: { id: scope.environmentId }, select: { retrySchedule: true, portalBranding: true } });
  const [id, timestamp, signature] = SIGNATURE_HEADERS;
  const signatureHeaders: SignatureHeaders = { id, timestamp, signature };
  return {
    retrySchedule: RETRY_SCHEDULE_BOUNDS,
    /** What an endpoint without its own schedule gets. */
    defaultRetrySchedule: environmentSchedule(environment?.retrySchedule ?? []),
    rateLimit: { min: 1, max: 65535 },
    rotationGraceSeconds: DEFAULT_ROTATION_GRACE_SECONDS,
    signatureHeaders,
    /** The same values are also sent as svix-id, svix-timestamp and svix-signature. */
    svixHeaderAliases: true,
    signatureToleranceSeconds: TOLERANCE_SECONDS,
    /** The numbers of the integration guide (/portal/guide). */
    guide: guideFacts(environment?.retrySchedule ?? []),
    /** The operator's name, logo, accent and theme for the portal's look. */
    branding: brandingOut(environment?.portalBranding),
  };
}
export type PortalSettings = Awaited<ReturnType<typeof portalSettings>>;
