import { db } from "../db";
import { env } from "../env";
import { ApiError } from "../http/errors";
import { hasPrefix, newId } from "../ids";
import { hashToken, randomToken } from "../crypto/tokens";
import type { PortalPrincipal, Scope } from "../auth/principal";
import { createApplication } from "../applications/manage-applications";
import { findApplication } from "../applications/find-application";
import { capabilitiesFrom, svixCapabilitiesOf } from "./capabilities";
import { EMBED_ENV_PARAM } from "../environments/portal-embedding";
import { PORTAL_TOKEN_DEFAULT_TTL_S, type AppPortalAccessIn } from "./schemas";

// Magic links: the operator asks for a link for one application; the token rides in the URL
// fragment (#key=…, never sent to servers or logs) and the portal page exchanges it for a
// short-lived session token that it sends as a bearer header. No cookies, so it works in
// iframes under third-party-cookie blocking. The token is also a bearer of its own
// (authenticate-portal.ts), as in Svix.

export const PORTAL_TOKEN_PREFIX = "hpt_";
export const PORTAL_SESSION_PREFIX = "hps_";
const PORTAL_SESSION_TTL_MS = 60 * 60 * 1000;

// 401s the portal tells apart, so it can say why it cannot open ("this link has expired").
const linkInvalid = () => new ApiError(401, "portal_link_invalid", "This portal link is not valid");
const linkExpired = () => new ApiError(401, "portal_link_expired", "This portal link has expired; ask for a new one");
const linkRevoked = () => new ApiError(401, "portal_link_revoked", "This portal link was revoked");

/** The application's id; an unknown uid with `application` in the body creates it (Svix's get-or-create). */
async function applicationIdFor(scope: Scope, appIdOrUid: string, input: AppPortalAccessIn): Promise<string> {
  try {
    return (await findApplication(scope, appIdOrUid)).id;
  } catch (e) {
    if (!input.application || hasPrefix(appIdOrUid, "application")) throw e;
    const { app } = await createApplication(
      scope,
      { ...input.application, uid: input.application.uid ?? appIdOrUid },
      true,
    );
    return app.id;
  }
}

export async function createPortalAccess(scope: Scope, appIdOrUid: string, input: AppPortalAccessIn) {
  const applicationId = await applicationIdFor(scope, appIdOrUid, input);
  const token = randomToken(PORTAL_TOKEN_PREFIX, 32);
  const ttl = input.expiry ?? PORTAL_TOKEN_DEFAULT_TTL_S;
  await db.portalToken.create({
    data: {
      id: newId("portalToken"),
      applicationId,
      hash: hashToken(token),
      readOnly: input.readOnly,
      featureFlags: input.featureFlags,
      capabilities: input.capabilities ?? [],
      expiresAt: new Date(Date.now() + ttl * 1000),
    },
  });
  // ?env= lets the first load be framed by the environment's own origins (portal-embedding.ts).
  const query = new URLSearchParams({ [EMBED_ENV_PARAM]: scope.environmentId });
  return { url: `${env().HERALD_PUBLIC_URL}/portal?${query}#key=${token}`, token };
}

type TokenRecord = { expiresAt: Date; createdAt: Date; application: { portalRevokedBefore: Date | null } };

/** A link's token is usable: issued by Herald, not expired, not revoked by expire-all. */
export function checkPortalToken<T extends TokenRecord>(record: T | null, now: Date): asserts record is T {
  if (!record) throw linkInvalid();
  if (record.expiresAt <= now) throw linkExpired();
  const revokedBefore = record.application.portalRevokedBefore;
  if (revokedBefore && record.createdAt < revokedBefore) throw linkRevoked();
}

/** Exchanges a magic-link token for a session token scoped to its one application. */
export async function exchangePortalToken(token: string) {
  const record = await db.portalToken.findUnique({ where: { hash: hashToken(token) }, include: { application: true } });
  const now = new Date();
  checkPortalToken(record, now);
  const session = randomToken(PORTAL_SESSION_PREFIX, 32);
  const expiresAt = new Date(Math.min(now.getTime() + PORTAL_SESSION_TTL_MS, record.expiresAt.getTime()));
  await db.portalSession.create({
    data: {
      id: newId("portalSession"),
      tokenId: record.id,
      applicationId: record.applicationId,
      hash: hashToken(session),
      expiresAt,
    },
  });
  return {
    session,
    expiresAt: expiresAt.toISOString(),
    readOnly: record.readOnly,
    featureFlags: record.featureFlags,
    capabilities: capabilitiesFrom(record.readOnly, record.featureFlags, record.capabilities),
    svixCapabilities: svixCapabilitiesOf(record.readOnly, record.capabilities),
    application: { id: record.application.id, uid: record.application.uid, name: record.application.name },
    // Opened by an application member (/portal/sign-in): the portal offers their email alerts.
    member: record.userId !== null,
  };
}

/**
 * GET /api/v1/portal/session: what the portal needs after a reload (the session itself stays
 * client-side). Called with the link's token as the bearer, it describes that token.
 */
export async function describePortalSession(p: PortalPrincipal) {
  const application = await db.application.findUniqueOrThrow({
    where: { id: p.applicationId },
    select: { id: true, uid: true, name: true },
  });
  return {
    expiresAt: p.expiresAt.toISOString(),
    readOnly: p.readOnly,
    featureFlags: p.featureFlags,
    capabilities: capabilitiesFrom(p.readOnly, p.featureFlags, p.capabilities),
    svixCapabilities: svixCapabilitiesOf(p.readOnly, p.capabilities),
    application,
    member: p.userId !== null,
  };
}

/**
 * Invalidates every portal link and session of an application issued until now. Session rows are
 * kept (authenticate refuses them through portalRevokedBefore) so an open portal can tell its
 * user "access was revoked" rather than "invalid session"; they expire within the hour anyway.
 */
export async function revokePortalAccess(scope: Scope, appIdOrUid: string) {
  const app = await findApplication(scope, appIdOrUid);
  await db.application.update({ where: { id: app.id }, data: { portalRevokedBefore: new Date() } });
}

/**
 * POST /api/v1/auth/logout: a session ends (its link still opens the portal); a link's token used
 * as the bearer is deleted, and with it the sessions made from it.
 */
export async function logoutPortal(p: PortalPrincipal) {
  if (p.sessionId) await db.portalSession.deleteMany({ where: { id: p.sessionId } });
  else await db.portalToken.deleteMany({ where: { id: p.tokenId } });
}
