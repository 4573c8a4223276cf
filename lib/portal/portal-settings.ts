import { RETRY_SCHEDULE_BOUNDS } from "../endpoints/schemas";
import { DEFAULT_ROTATION_GRACE_SECONDS } from "../endpoints/endpoint-secrets";
import { STANDARD_HEADERS } from "./verify-snippets";

// The platform facts the portal's forms and pages show, from the modules that enforce them, so
// the UI never states a bound or a header name that the server does not use.

export function portalSettings() {
  return {
    retrySchedule: RETRY_SCHEDULE_BOUNDS,
    rateLimit: { min: 1, max: 65535 },
    rotationGraceSeconds: DEFAULT_ROTATION_GRACE_SECONDS,
    signatureHeaders: STANDARD_HEADERS,
    signatureToleranceSeconds: 300,
  };
}
export type PortalSettings = ReturnType<typeof portalSettings>;
