import { db } from "../db";
import { env } from "../env";
import { newId } from "../ids";
import { hashToken, randomToken } from "../crypto/tokens";
import { PORTAL_TOKEN_PREFIX } from "../portal-access/portal-tokens";

// The standalone portal for invited integrators: after signing in (an email link, /portal/sign-in)
// a member opens an application's portal, and gets exactly what a magic link gives, minted for
// them: a portal token with their role (viewer = read-only), carried in the URL fragment to the
// same portal pages and capability checks. The token remembers its user, so removing the member
// deletes it and every portal session made from it (lib/accounts/app-members.ts).

export const MEMBER_PORTAL_TTL_S = 8 * 60 * 60;

export async function memberApplications(userId: string) {
  const rows = await db.applicationMembership.findMany({
    where: { userId, application: { internal: false } },
    select: { role: true, application: { select: { id: true, name: true, environment: { select: { name: true } } } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((r) => ({ id: r.application.id, name: r.application.name, provider: r.application.environment.name, role: r.role }));
}

/** The portal URL (with a fresh link token in its fragment) of an application the user belongs to; null if not a member. */
export async function openMemberPortal(userId: string, applicationId: string): Promise<string | null> {
  const m = await db.applicationMembership.findUnique({
    where: { applicationId_userId: { applicationId, userId } },
    select: { role: true, application: { select: { internal: true } } },
  });
  if (!m || m.application.internal) return null;
  const token = randomToken(PORTAL_TOKEN_PREFIX, 32);
  await db.portalToken.create({
    data: {
      id: newId("portalToken"),
      applicationId,
      userId,
      hash: hashToken(token),
      readOnly: m.role === "viewer",
      featureFlags: [],
      expiresAt: new Date(Date.now() + MEMBER_PORTAL_TTL_S * 1000),
    },
  });
  return `${env().HERALD_PUBLIC_URL}/portal#key=${token}`;
}
