import { db } from "../db";
import { hashToken } from "../crypto/tokens";
import { ApiError, unauthorized } from "../http/errors";
import type { Principal } from "./principal";

// Resolves `Authorization: Bearer <token>` to a principal: an operator API key (any string; we
// only keep its hash) or a portal session. Operator lookups are cached briefly because they are
// on the publish hot path; a revoked key stops working within API_KEY_CACHE_MS.

const API_KEY_CACHE_MS = 5_000;
const apiKeyCache = new Map<string, { principal: Principal; until: number }>();

export function bearerToken(header: string | null): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}

export async function authenticate(authorization: string | null): Promise<Principal> {
  const token = bearerToken(authorization);
  if (!token) throw unauthorized("Missing Authorization header: send `Authorization: Bearer <api key>`");
  const hash = hashToken(token);

  const cached = apiKeyCache.get(hash);
  if (cached && cached.until > Date.now()) return cached.principal;

  const key = await db.apiKey.findUnique({ where: { hash }, select: { id: true, environmentId: true, revokedAt: true } });
  if (key && !key.revokedAt) {
    const principal: Principal = { kind: "operator", environmentId: key.environmentId, apiKeyId: key.id };
    apiKeyCache.set(hash, { principal, until: Date.now() + API_KEY_CACHE_MS });
    return principal;
  }

  const session = await db.portalSession.findUnique({
    where: { hash },
    include: { token: true },
  });
  if (session) {
    const app = await db.application.findUnique({
      where: { id: session.applicationId },
      select: { environmentId: true, portalRevokedBefore: true },
    });
    const now = new Date();
    // Distinct codes so the portal can tell its user why (docs/portal.md).
    if (!app) throw new ApiError(401, "portal_session_invalid", "Portal session is no longer valid");
    if (app.portalRevokedBefore && session.token.createdAt < app.portalRevokedBefore)
      throw new ApiError(401, "portal_session_revoked", "Portal access for this application was revoked");
    if (session.expiresAt <= now || session.token.expiresAt <= now)
      throw new ApiError(401, "portal_session_expired", "Portal session has expired; open the portal link again");
    return {
      kind: "portal",
      environmentId: app.environmentId,
      applicationId: session.applicationId,
      readOnly: session.token.readOnly,
      featureFlags: session.token.featureFlags,
      sessionId: session.id,
    };
  }
  if (token.startsWith("hps_"))
    throw new ApiError(401, "portal_session_invalid", "Portal session is not valid (signed out or unknown); open the portal link again");
  throw unauthorized("Invalid API key or portal session");
}
