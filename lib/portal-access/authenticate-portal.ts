import { db } from "../db";
import { ApiError } from "../http/errors";
import type { PortalPrincipal } from "../auth/principal";
import { checkPortalToken, PORTAL_SESSION_PREFIX, PORTAL_TOKEN_PREFIX } from "./portal-tokens";

// The two portal credentials, each scoped to one application with its link's read-only setting
// and feature flags:
// - a session (hps_…), what the portal page exchanges its link for (an hour at most);
// - the link's token itself (hpt_…), which Svix also accepts as a bearer for the application's
//   API (svix-react is built on it): valid until the link expires, is revoked (expire-all) or
//   logged out.
// Each refusal has its own code, so the portal can tell its user why (docs/portal.md).

export async function authenticatePortal(bearer: string, hash: string): Promise<PortalPrincipal | null> {
  const now = new Date();
  if (bearer.startsWith(PORTAL_TOKEN_PREFIX)) {
    const record = await db.portalToken.findUnique({
      where: { hash },
      include: { application: { select: { environmentId: true, portalRevokedBefore: true } } },
    });
    checkPortalToken(record, now);
    return {
      kind: "portal",
      environmentId: record.application.environmentId,
      applicationId: record.applicationId,
      readOnly: record.readOnly,
      featureFlags: record.featureFlags,
      capabilities: record.capabilities.length > 0 ? record.capabilities : null,
      tokenId: record.id,
      sessionId: null,
      expiresAt: record.expiresAt,
      userId: record.userId,
    };
  }

  const session = await db.portalSession.findUnique({
    where: { hash },
    include: { token: { include: { application: { select: { environmentId: true, portalRevokedBefore: true } } } } },
  });
  if (!session) {
    if (bearer.startsWith(PORTAL_SESSION_PREFIX))
      throw new ApiError(401, "portal_session_invalid", "Portal session is not valid (signed out or unknown); open the portal link again");
    return null;
  }
  const { token } = session;
  const revokedBefore = token.application.portalRevokedBefore;
  if (revokedBefore && token.createdAt < revokedBefore)
    throw new ApiError(401, "portal_session_revoked", "Portal access for this application was revoked");
  if (session.expiresAt <= now || token.expiresAt <= now)
    throw new ApiError(401, "portal_session_expired", "Portal session has expired; open the portal link again");
  return {
    kind: "portal",
    environmentId: token.application.environmentId,
    applicationId: session.applicationId,
    readOnly: token.readOnly,
    featureFlags: token.featureFlags,
    capabilities: token.capabilities.length > 0 ? token.capabilities : null,
    tokenId: token.id,
    sessionId: session.id,
    expiresAt: session.expiresAt,
    userId: token.userId,
  };
}
