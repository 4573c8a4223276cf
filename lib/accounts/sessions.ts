import { randomBytes } from "node:crypto";
import { db } from "../db";
import { hashToken } from "../crypto/tokens";
import { newId } from "../ids";

// Server-side sessions behind next-auth's cookie. next-auth v4 keeps Credentials sign-ins in an
// encrypted JWT cookie; we put a random session id in it and store only its sha256 here. Every
// request looks the row up, so deleting rows ends sessions at once: sign-out, "sign out
// everywhere", a removed member. A stolen database holds no usable session.

export const SESSION_TTL_S = 7 * 24 * 60 * 60;

export async function createUserSession(userId: string): Promise<{ sid: string; expiresAt: Date }> {
  const sid = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + SESSION_TTL_S * 1000);
  await db.userSession.create({ data: { id: newId("userSession"), userId, hash: hashToken(sid), expiresAt } });
  return { sid, expiresAt };
}

export type SessionUser = { id: string; email: string; name: string | null };

/** The user of a live session id, or null (unknown, ended or expired). */
export async function findSessionUser(sid: string): Promise<SessionUser | null> {
  const row = await db.userSession.findUnique({
    where: { hash: hashToken(sid) },
    select: { expiresAt: true, user: { select: { id: true, email: true, name: true } } },
  });
  if (!row || row.expiresAt <= new Date()) return null;
  return row.user;
}

export async function endSession(sid: string): Promise<void> {
  await db.userSession.deleteMany({ where: { hash: hashToken(sid) } });
}

/**
 * A membership was removed: when it was the user's last access anywhere, their browsers are signed
 * out now and unused sign-in links die. Not otherwise: one environment (or an application's
 * operator) removing someone must not sign them out of another environment, where they still work
 * (a session only reaches environments the user is a member of, checked on every request).
 */
export async function endSessionsIfNoAccessLeft(userId: string, email: string): Promise<void> {
  const [environments, applications] = await Promise.all([
    db.environmentMembership.count({ where: { userId } }),
    db.applicationMembership.count({ where: { userId } }),
  ]);
  if (environments + applications > 0) return;
  await db.$transaction([
    db.userSession.deleteMany({ where: { userId } }),
    db.verificationToken.deleteMany({ where: { identifier: email } }),
  ]);
}

/** Every session of this user but the one given (a new password signs out the other browsers). */
export async function endOtherSessions(userId: string, keepSid: string): Promise<number> {
  const { count } = await db.userSession.deleteMany({ where: { userId, hash: { not: hashToken(keepSid) } } });
  return count;
}

/**
 * "Sign out everywhere": every browser's session, and the portal links minted for the user from
 * /portal/sign-in (with them, their portal sessions), so an open member portal stops too.
 */
export async function signOutEverywhere(userId: string): Promise<{ sessions: number; portalLinks: number }> {
  const [sessions, links] = await db.$transaction([
    db.userSession.deleteMany({ where: { userId } }),
    db.portalToken.deleteMany({ where: { userId } }),
  ]);
  return { sessions: sessions.count, portalLinks: links.count };
}
