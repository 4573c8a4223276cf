import { db } from "../db";
import type { Scope } from "../auth/principal";
import { splitSensitiveHeaders, validateCustomHeaders } from "./custom-headers";
import { DEFAULT_ROTATION_GRACE_SECONDS, newSigningKey, visibleSecret } from "./endpoint-secrets";
import { findEndpoint } from "./find-endpoint";
import { openHeaders, sealHeaders } from "./manage-endpoints";

// Custom headers and signing keys of an endpoint: both are stored sealed (lib/crypto/secret-box).

export async function getEndpointHeaders(scope: Scope, app: string, ep: string) {
  const { endpoint } = await findEndpoint(scope, app, ep);
  return splitSensitiveHeaders(openHeaders(endpoint.headersEncrypted));
}

export async function replaceEndpointHeaders(scope: Scope, app: string, ep: string, headers: Record<string, string>) {
  const { endpoint } = await findEndpoint(scope, app, ep);
  validateCustomHeaders(headers);
  await db.endpoint.update({ where: { id: endpoint.id }, data: { headersEncrypted: sealHeaders(headers) } });
}

/** Merges: a null value removes that header. */
export async function patchEndpointHeaders(scope: Scope, app: string, ep: string, patch: Record<string, string | null>) {
  const { endpoint } = await findEndpoint(scope, app, ep);
  validateCustomHeaders(patch);
  const headers = openHeaders(endpoint.headersEncrypted);
  for (const [k, v] of Object.entries(patch)) {
    for (const existing of Object.keys(headers)) if (existing.toLowerCase() === k.toLowerCase()) delete headers[existing];
    if (v !== null) headers[k] = v;
  }
  await db.endpoint.update({ where: { id: endpoint.id }, data: { headersEncrypted: sealHeaders(headers) } });
}

export async function getEndpointSecret(scope: Scope, app: string, ep: string) {
  const { endpoint } = await findEndpoint(scope, app, ep);
  return { key: visibleSecret(endpoint) };
}

/**
 * Rotates the signing key. The previous key keeps signing (a second signature in the same
 * header) for the grace period, default 24 h, so receivers can deploy the new one without a gap.
 */
export async function rotateEndpointSecret(
  scope: Scope,
  app: string,
  ep: string,
  input: { key?: string | null | undefined; gracePeriodSeconds?: number | null | undefined },
) {
  const { endpoint } = await findEndpoint(scope, app, ep);
  const next = newSigningKey(endpoint.signingAlgorithm, input.key, ["body", "key"]);
  const grace = input.gracePeriodSeconds ?? DEFAULT_ROTATION_GRACE_SECONDS;
  await db.endpoint.update({
    where: { id: endpoint.id },
    data: {
      secretEncrypted: next.secretEncrypted,
      publicKey: next.publicKey,
      previousSecretEncrypted: grace > 0 ? endpoint.secretEncrypted : null,
      previousSecretExpiresAt: grace > 0 ? new Date(Date.now() + grace * 1000) : null,
    },
  });
}
