import { db } from "../db";
import { hashToken } from "../crypto/tokens";
import { unauthorized } from "../http/errors";
import { authenticatePortal } from "../portal-access/authenticate-portal";
import { touchApiKey } from "../environments/api-keys";
import { logger } from "../logger";
import type { Principal } from "./principal";

// Resolves `Authorization: Bearer <token>` to a principal: an operator API key (any string; we
// only keep its hash) or a portal credential (a session, or the portal link's token). Operator
// lookups are cached briefly because they are on the publish hot path; a revoked key stops
// working within API_KEY_CACHE_MS.

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
    const principal: Principal = { kind: "operator", environmentId: key.environmentId, via: "api_key", apiKeyId: key.id, userId: null, role: "owner" };
    apiKeyCache.set(hash, { principal, until: Date.now() + API_KEY_CACHE_MS });
    // "Last used" for the console's key list; not awaited, a failed write must not fail the call.
    touchApiKey(key.id).catch((err: unknown) => logger.warn({ err }, "could not record an API key's last use"));
    return principal;
  }

  // The caller holds the key, so saying it was revoked tells them nothing new, and spares them
  // hunting for a typo.
  if (key?.revokedAt)
    throw unauthorized(`This API key was revoked on ${key.revokedAt.toISOString()}; use another key (the console's API keys page, or npm run api-key)`);
  const portal = await authenticatePortal(token, hash);
  if (portal) return portal;
  throw unauthorized("Invalid API key or portal session");
}
