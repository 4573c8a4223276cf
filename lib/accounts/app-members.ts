import { db } from "../db";
import { notFound } from "../http/errors";
import { newId } from "../ids";
import type { Scope } from "../auth/principal";
import { findApplication } from "../applications/find-application";
import { normalizeEmail } from "./adapter";
import { deliverInvite, type InviteResult } from "./invite-link";
import { endSessionsIfNoAccessLeft } from "./sessions";
import { ensureUser } from "./users";
import type { AppMemberIn } from "./schemas";

// Integrators invited to one application (POST /api/v1/app/{app_id}/member): they sign in at
// /portal/sign-in and get that application's portal, read-only for viewers. Removing a member
// deletes the portal links minted for them (and so their portal sessions), and ends their sign-in
// sessions when it was their last access anywhere.

type Row = { role: "admin" | "viewer"; createdAt: Date; applicationId: string; user: { id: string; email: string; name: string | null } };
const select = { role: true, createdAt: true, applicationId: true, user: { select: { id: true, email: true, name: true } } } as const;

export function serializeAppMember(m: Row) {
  return { userId: m.user.id, email: m.user.email, name: m.user.name, role: m.role, appId: m.applicationId, createdAt: m.createdAt.toISOString() };
}

export async function listAppMembers(scope: Scope, appIdOrUid: string) {
  const app = await findApplication(scope, appIdOrUid);
  const rows = await db.applicationMembership.findMany({ where: { applicationId: app.id }, select, orderBy: { createdAt: "asc" } });
  return { data: rows.map(serializeAppMember) };
}

/**
 * Adds (or finds) a member of the application; `created` false when they already were one. A
 * member who has never signed in is sent the invitation again (the new link is the only one).
 */
export async function inviteAppMember(scope: Scope, appIdOrUid: string, input: AppMemberIn): Promise<{ created: boolean; member: ReturnType<typeof serializeAppMember>; invite: InviteResult | null }> {
  const app = await findApplication(scope, appIdOrUid);
  const user = await ensureUser(input.email);
  const existing = await db.applicationMembership.findUnique({ where: { applicationId_userId: { applicationId: app.id, userId: user.id } }, select });
  const what = `the webhooks portal of ${app.name}`;
  const landing = `/portal/sign-in/continue?app=${app.id}`;
  if (existing) return { created: false, member: serializeAppMember(existing), invite: await deliverInvite(user, what, landing, true) };
  const row = await db.applicationMembership.create({
    data: { id: newId("applicationMembership"), applicationId: app.id, userId: user.id, role: input.role },
    select,
  });
  const invite = await deliverInvite(user, what, landing);
  return { created: true, member: serializeAppMember(row), invite };
}

export async function removeAppMember(scope: Scope, appIdOrUid: string, email: string): Promise<void> {
  const app = await findApplication(scope, appIdOrUid);
  const m = await db.applicationMembership.findFirst({ where: { applicationId: app.id, user: { email: normalizeEmail(email) } }, select: { id: true, userId: true, user: { select: { email: true } } } });
  if (!m) throw notFound("Member");
  await db.$transaction([
    db.applicationMembership.delete({ where: { id: m.id } }),
    // Portal links minted for them from /portal/sign-in; their portal sessions go with them (cascade).
    db.portalToken.deleteMany({ where: { applicationId: app.id, userId: m.userId } }),
  ]);
  await endSessionsIfNoAccessLeft(m.userId, m.user.email);
}
