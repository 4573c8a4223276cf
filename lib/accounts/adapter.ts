import type { Adapter, AdapterAccount, AdapterUser } from "next-auth/adapters";
import { db } from "../db";
import { newId } from "../ids";

// The part of next-auth's adapter interface Herald uses with its JWT sessions (lib/accounts/sessions.ts
// keeps the session rows): users, OIDC account links and email sign-in tokens. Users exist only
// by invitation or bootstrap, so next-auth may never create one: signIn (auth-options.ts)
// refuses unknown people before next-auth would, and createUser refuses as a second line.

type Row = { id: string; email: string; name: string | null; emailVerified: Date | null };
const toAdapterUser = (u: Row): AdapterUser => ({ id: u.id, email: u.email, name: u.name, emailVerified: u.emailVerified });
const userSelect = { id: true, email: true, name: true, emailVerified: true } as const;

export class NotInvited extends Error {
  constructor() {
    super("AccessDenied");
  }
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function heraldAdapter(): Adapter {
  return {
    createUser: () => {
      throw new NotInvited();
    },
    getUser: async (id) => {
      const u = await db.user.findUnique({ where: { id }, select: userSelect });
      return u && toAdapterUser(u);
    },
    getUserByEmail: async (email) => {
      const u = await db.user.findUnique({ where: { email: normalizeEmail(email) }, select: userSelect });
      return u && toAdapterUser(u);
    },
    getUserByAccount: async ({ provider, providerAccountId }) => {
      const a = await db.userAccount.findUnique({
        where: { provider_providerAccountId: { provider, providerAccountId } },
        select: { user: { select: userSelect } },
      });
      return a && toAdapterUser(a.user);
    },
    updateUser: async ({ id, emailVerified }) => {
      const u = await db.user.update({ where: { id }, data: emailVerified ? { emailVerified } : {}, select: userSelect });
      return toAdapterUser(u);
    },
    linkAccount: async (account: AdapterAccount) => {
      // Only the link itself: OIDC tokens are not kept (Herald never calls the issuer's APIs).
      await db.userAccount.create({
        data: { id: newId("userAccount"), userId: account.userId, provider: account.provider, providerAccountId: account.providerAccountId },
      });
    },
    createVerificationToken: async ({ identifier, token, expires }) => {
      await db.verificationToken.create({ data: { identifier: normalizeEmail(identifier), token, expiresAt: expires } });
      return { identifier, token, expires };
    },
    // Single use: the row is deleted as it is read; next-auth refuses it if expired.
    useVerificationToken: async ({ identifier, token }) => {
      // One statement, so two clicks racing on the same link cannot both get it.
      const rows = await db.$queryRaw<{ identifier: string; token: string; expires_at: Date }[]>`
        DELETE FROM verification_token WHERE identifier = ${normalizeEmail(identifier)} AND token = ${token}
        RETURNING identifier, token, expires_at`;
      const row = rows[0];
      return row ? { identifier: row.identifier, token: row.token, expires: row.expires_at } : null;
    },
  };
}
