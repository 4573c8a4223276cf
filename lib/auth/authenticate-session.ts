import { db } from "../db";
import { ApiError, badRequest, forbidden, notFound, unauthorized } from "../http/errors";
import { hasSessionCookie, userFromCookieHeader } from "../accounts/session-cookie";
import type { OperatorPrincipal } from "./principal";

// The console calls the same /api/v1 routes as API clients, authorised by the next-auth session
// cookie of a member of the environment:
// - the environment is named by ENVIRONMENT_HEADER (optional for a member of exactly one);
//   not a member of it -> 404, as for any other tenant's ids;
// - CSRF: a cookie rides along on any request the browser makes, so a session-authenticated
//   request that is not GET/HEAD must carry ENVIRONMENT_HEADER, a custom header that a cross-site
//   form cannot send and a cross-site fetch cannot send without a CORS preflight we never allow.
//   (The cookie is also SameSite=Lax.)

export const ENVIRONMENT_HEADER = "x-herald-environment";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The operator principal of the session cookie, or null when the request carries none. A session
 * cookie that no longer works (signed out, expired, revoked: a console tab left open) is a 401
 * that says so, rather than the API's "send an API key".
 */
export async function authenticateSession(req: Request): Promise<OperatorPrincipal | null> {
  const cookies = req.headers.get("cookie");
  const user = await userFromCookieHeader(cookies);
  if (!user) {
    if (hasSessionCookie(cookies)) throw unauthorized("Your session has ended (signed out, expired or revoked): sign in again");
    return null;
  }
  const requested = req.headers.get(ENVIRONMENT_HEADER)?.trim() || null;
  if (!requested && !SAFE_METHODS.has(req.method))
    throw new ApiError(
      403,
      "csrf_header_missing",
      `A request signed in with a session cookie that changes something must send the ${ENVIRONMENT_HEADER} header`,
    );

  const memberships = await db.environmentMembership.findMany({
    where: requested ? { userId: user.id, environmentId: requested } : { userId: user.id },
    select: { environmentId: true, role: true },
    take: 2,
  });
  let membership = memberships[0];
  if (requested) {
    if (!membership) throw notFound("Environment");
  } else if (memberships.length === 0) {
    throw forbidden("This account is not a member of any environment");
  } else if (memberships.length > 1) {
    throw badRequest(`This account belongs to several environments: name one in the ${ENVIRONMENT_HEADER} header`, "environment_required");
  }
  membership = membership!;
  return { kind: "operator", environmentId: membership.environmentId, via: "session", apiKeyId: null, userId: user.id, role: membership.role };
}
