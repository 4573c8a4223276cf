import { randomBytes } from "node:crypto";
import { db } from "../db";
import { env } from "../env";
import { sha256Hex } from "../crypto/tokens";
import { logger } from "../logger";
import { authSecret } from "./auth-secret";
import { linkMail, mailConfigured, sendMail } from "./mail";

// Invitations are next-auth email sign-in links minted here, with a longer life than a sign-in
// link (INVITE_TTL_S): the same single-use verification_token row (hashed as next-auth hashes
// it), followed through /api/auth/callback/email like any sign-in link. With SMTP configured the
// link goes by email only. Without it, the inviter gets the link, but only for a user who has
// never signed in and has no other access: a link for an existing account would let one
// environment's admin sign in as a member of another.

export const INVITE_TTL_S = 72 * 60 * 60;

export type InviteResult = {
  /** The invitation went out by email. */
  sent: boolean;
  /** The one-time sign-in link, when it could not be emailed and may be handed over. */
  url: string | null;
  expiresAt: string | null;
  /** Why there is neither an email nor a link. */
  note: string | null;
};

type Tx = Parameters<Parameters<typeof db.$transaction>[0]>[0];

/**
 * "fresh": never signed in, no password, no linked identity, at most the one membership just
 * given. "account": they can sign in already. "invited_elsewhere": not signed in yet, but invited
 * to something else too, which a link handed over here would also open.
 */
async function standing(tx: Tx, userId: string): Promise<"fresh" | "account" | "invited_elsewhere"> {
  const u = await tx.user.findUniqueOrThrow({
    where: { id: userId },
    select: {
      passwordHash: true,
      emailVerified: true,
      _count: { select: { accounts: true, environmentMemberships: true, applicationMemberships: true, sessions: true } },
    },
  });
  const c = u._count;
  if (u.passwordHash || u.emailVerified || c.accounts > 0 || c.sessions > 0) return "account";
  return c.environmentMemberships + c.applicationMemberships <= 1 ? "fresh" : "invited_elsewhere";
}

const NO_LINK_NOTE = {
  account: "This person already has an account: they sign in as usual and will see the new access.",
  invited_elsewhere:
    "This person has not signed in yet and was invited elsewhere on this server too: a link handed over here would open that access as well, so none is given, and earlier links no longer work. Without email, the other place removes them first; then invite them again here for a link.",
} as const;

async function mintLink(tx: Tx, email: string, callbackPath: string, ttlS: number) {
  const token = randomBytes(32).toString("hex");
  const expires = new Date(Date.now() + ttlS * 1000);
  await tx.verificationToken.create({ data: { identifier: email, token: sha256Hex(`${token}${authSecret()}`), expiresAt: expires } });
  const base = env().HERALD_PUBLIC_URL;
  const params = new URLSearchParams({ callbackUrl: `${base}${callbackPath}`, token, email });
  return { url: `${base}/api/auth/callback/email?${params}`, expires };
}

/**
 * Tells an invited user how to come in: an email with a sign-in link, or a link for the inviter
 * to pass on (see above). `what` names what they were invited to, for the email.
 * `again`: an invitation of someone who already is a member: sent anew (earlier links stop
 * working) only while they have never signed in, else nothing (null): they sign in as usual.
 */
export async function deliverInvite(user: { id: string; email: string }, what: string, callbackPath: string, again: true): Promise<InviteResult | null>;
export async function deliverInvite(user: { id: string; email: string }, what: string, callbackPath: string): Promise<InviteResult>;
export async function deliverInvite(user: { id: string; email: string }, what: string, callbackPath: string, again = false): Promise<InviteResult | null> {
  const handOver = !mailConfigured();
  // Links minted for earlier invitations must not carry the new access (to someone the earlier
  // inviter may have handed them to): only the newest link signs in. Under a lock on the person,
  // so two invitations at once cannot both find them fresh, or delete before the other mints.
  const minted = await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM "user" WHERE id = ${user.id} FOR UPDATE`;
    const status = await standing(tx, user.id);
    if (again && status === "account") return null;
    await tx.verificationToken.deleteMany({ where: { identifier: user.email } });
    return { status, link: !handOver || status === "fresh" ? await mintLink(tx, user.email, callbackPath, INVITE_TTL_S) : null };
  });
  if (!minted) return null;
  if (!minted.link) return { sent: false, url: null, expiresAt: null, note: minted.status === "invited_elsewhere" ? NO_LINK_NOTE.invited_elsewhere : NO_LINK_NOTE.account };
  const { url, expires } = minted.link;
  if (handOver) return { sent: false, url, expiresAt: expires.toISOString(), note: "Email is not configured on this server: pass this one-time link on yourself." };
  try {
    await sendMail(
      linkMail(
        user.email,
        `You have been invited to ${what} on Herald`,
        `You have been given access to ${what} on Herald, the webhook service.`,
        "Accept and sign in",
        url,
        `The link works once, within ${Math.round(INVITE_TTL_S / 3600)} hours. Later, sign in at ${env().HERALD_PUBLIC_URL}/sign-in.`,
      ),
    );
    return { sent: true, url: null, expiresAt: expires.toISOString(), note: null };
  } catch (e) {
    logger.warn({ err: e, to: user.email }, "invitation email failed");
    await db.verificationToken.deleteMany({ where: { identifier: user.email, expiresAt: expires } });
    return { sent: false, url: null, expiresAt: null, note: `The invitation email could not be sent (${e instanceof Error ? e.message : String(e)}); the membership is in place, invite again to resend.` };
  }
}
