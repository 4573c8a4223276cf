import type { Scope } from "../auth/principal";
import { findApplication } from "../applications/find-application";
import { addressPolicy } from "../services";
import { validateEndpointUrl } from "../ssrf/validate-url";

/**
 * The create/edit form's as-you-type check: the same rules (syntax, scheme, credentials, SSRF
 * address policy) that creating the endpoint applies, answered without creating anything.
 */
export async function checkEndpointUrl(scope: Scope, appIdOrUid: string, url: string) {
  await findApplication(scope, appIdOrUid);
  const verdict = await validateEndpointUrl(url, addressPolicy());
  return verdict.ok ? { ok: true as const, url: verdict.url.toString() } : { ok: false as const, reason: `URL ${verdict.reason}` };
}
