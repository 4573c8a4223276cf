import { db } from "../db";
import { conflict, forbidden, notFound } from "../http/errors";
import { newId } from "../ids";
import { assertOperatorAdmin, type OperatorRole, type Principal } from "../auth/principal";
import { normalizeEmail } from "./adapter";
import { deliverInvite, type InviteResult } from "./invite-link";
import { endSessionsIfNoAccessLeft } from "./sessions";
import { ensureUser } from "./users";
import type { OperatorMemberIn } from "./schemas";

// Operators of an environment (the console's Members page and /api/v1/environment/member).
// Owners and admins manage members; only an owner grants, changes or removes the owner role, and
// the last owner stays. Removing a member takes this environment from their sessions at once (each
// request checks the membership) and ends the sessions when it was their last access.

type MemberRow = { role: OperatorRole; createdAt: Date; user: { id: string; email: string; name: string | null } };
const memberSelect = { role: true, createdAt: true, user: { select: { id: true, email: true, name: true } } } as const;

export function serializeOperator(m: MemberRow) {
  return { userId: m.user.id, email: m.user.email, name: m.user.name, role: m.role, createdAt: m.createdAt.toISOString() };
}

function assertMayTouchOwner(actor: Principal, ...roles: (OperatorRole | undefined)[]) {
  if (roles.includes("owner") && !(actor.kind === "operator" && actor.role === "owner"))
    throw forbidden("Only an owner can grant, change or remove the owner role");
}

async function findMember(environmentId: string, email: string) {
  const m = await db.environmentMembership.findFirst({
    where: { environmentId, user: { email: normalizeEmail(email) } },
    select: { id: true, ...memberSelect },
  });
  if (!m) throw notFound("Member");
  return m;
}

async function assertNotLastOwner(environmentId: string, membershipId: string) {
  const others = await db.environmentMembership.count({ where: { environmentId, role: "owner", id: { not: membershipId } } });
  if (others === 0) throw conflict("The environment must keep at least one owner", "last_owner");
}

export async function listOperators(principal: Principal) {
  const rows = await db.environmentMembership.findMany({
    where: { environmentId: principal.environmentId },
    select: memberSelect,
    orderBy: { createdAt: "asc" },
  });
  return { data: rows.map(serializeOperator) };
}

/**
 * Adds (or finds) a member; `created` is false when they already were one (role unchanged). A
 * member who has never signed in is sent the invitation again (a lost or expired link, a failed
 * email): the new link is the only one that works.
 */
export async function inviteOperator(principal: Principal, input: OperatorMemberIn): Promise<{ created: boolean; member: ReturnType<typeof serializeOperator>; invite: InviteResult | null }> {
  assertOperatorAdmin(principal);
  assertMayTouchOwner(principal, input.role);
  const user = await ensureUser(input.email);
  const existing = await db.environmentMembership.findUnique({
    where: { environmentId_userId: { environmentId: principal.environmentId, userId: user.id } },
    select: memberSelect,
  });
  const env = await db.environment.findUniqueOrThrow({ where: { id: principal.environmentId }, select: { name: true } });
  const what = `the "${env.name}" environment`;
  // The link's first stop: "set your password" (skippable when email links work), then the console.
  const landing = "/account?welcome=1&next=/console";
  if (existing) return { created: false, member: serializeOperator(existing), invite: await deliverInvite(user, what, landing, true) };
  const row = await db.environmentMembership.create({
    data: { id: newId("environmentMembership"), environmentId: principal.environmentId, userId: user.id, role: input.role },
    select: memberSelect,
  });
  const invite = await deliverInvite(user, what, landing);
  return { created: true, member: serializeOperator(row), invite };
}

export async function changeOperatorRole(principal: Principal, email: string, role: OperatorRole) {
  assertOperatorAdmin(principal);
  const m = await findMember(principal.environmentId, email);
  assertMayTouchOwner(principal, m.role, role);
  if (m.role === "owner" && role !== "owner") await assertNotLastOwner(principal.environmentId, m.id);
  const row = await db.environmentMembership.update({ where: { id: m.id }, data: { role }, select: memberSelect });
  return serializeOperator(row);
}

export async function removeOperator(principal: Principal, email: string): Promise<void> {
  assertOperatorAdmin(principal);
  const m = await findMember(principal.environmentId, email);
  assertMayTouchOwner(principal, m.role);
  if (m.role === "owner") await assertNotLastOwner(principal.environmentId, m.id);
  await db.environmentMembership.delete({ where: { id: m.id } });
  // Their sessions reach this environment no more (checked on every request); with no access left
  // anywhere, their browsers are signed out now (sessions.ts).
  await endSessionsIfNoAccessLeft(m.user.id, m.user.email);
}
