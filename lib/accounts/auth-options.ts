import type { NextAuthOptions, User } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import EmailProvider from "next-auth/providers/email";
import { db } from "../db";
import { env, pinNextAuthUrl } from "../env";
import { logger } from "../logger";
import { heraldAdapter, normalizeEmail } from "./adapter";
import { authSecret, secureCookies } from "./auth-secret";
import { CLIENT_ADDRESS_HEADER } from "./client-address";
import { linkMail, mailConfigured, MailNotConfigured, sendMail } from "./mail";
import { verifyPassword } from "./password";
import { assertSignInAllowed, recordSignInFailure } from "./rate-limit";
import { createUserSession, endSession, findSessionUser, SESSION_TTL_S } from "./sessions";

// next-auth v4 for both front doors (the console's /sign-in and the portal's /portal/sign-in):
// - Credentials (email + password, scrypt), limited per email and per client address;
// - Email links (single use, EMAIL_LINK_TTL_S), sent only to people who have an account;
// - OpenID Connect when HERALD_OIDC_* is set, for invited users (matched by email).
// Sessions: next-auth's JWT cookie carries only a random session id whose hash is a row in
// user_session (sessions.ts); every reader checks the row, so sign-out is immediate everywhere.

export const EMAIL_LINK_TTL_S = 15 * 60;
export const WRONG_CREDENTIALS = "Wrong email or password.";
export const OIDC_PROVIDER_ID = "oidc";

class SessionEnded extends Error {
  constructor() {
    super("session ended");
  }
}

async function authorizePassword(credentials: Record<string, string> | undefined, headers: Record<string, unknown>): Promise<User> {
  const email = normalizeEmail(String(credentials?.email ?? ""));
  const password = String(credentials?.password ?? "");
  const stamped = headers[CLIENT_ADDRESS_HEADER];
  const address = typeof stamped === "string" ? stamped : null;
  if (!email || !password) throw new Error("Enter your email and password.");
  try {
    await assertSignInAllowed(email, address);
  } catch (e) {
    throw new Error(e instanceof Error ? e.message : String(e));
  }
  const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true, name: true, passwordHash: true } });
  // verifyPassword spends the same scrypt time for an unknown email; the error is the same too.
  if (!(await verifyPassword(password, user?.passwordHash ?? null)) || !user) {
    await recordSignInFailure(email, address);
    throw new Error(WRONG_CREDENTIALS);
  }
  return { id: user.id, email: user.email, name: user.name };
}

async function sendSignInLink({ identifier, url, expires }: { identifier: string; url: string; expires: Date }) {
  if (!mailConfigured()) throw new MailNotConfigured();
  const user = await db.user.findUnique({ where: { email: normalizeEmail(identifier) }, select: { id: true } });
  // No account: nothing is sent, and the page says "check your email" all the same, so the form
  // does not tell who has an account.
  if (!user) return;
  const minutes = Math.round((expires.getTime() - Date.now()) / 60_000);
  await sendMail(
    linkMail(
      identifier,
      "Sign in to Herald",
      "Someone (hopefully you) asked to sign in to Herald with this email address.",
      "Sign in",
      url,
      `The link works once, within ${minutes} minutes. If you did not ask for it, ignore this email.`,
    ),
  );
}

function oidcProvider(): NextAuthOptions["providers"][number] | null {
  const e = env();
  if (!e.HERALD_OIDC_ISSUER || !e.HERALD_OIDC_CLIENT_ID || !e.HERALD_OIDC_CLIENT_SECRET) return null;
  const issuer = e.HERALD_OIDC_ISSUER.replace(/\/$/, "");
  return {
    id: OIDC_PROVIDER_ID,
    name: e.HERALD_OIDC_NAME,
    type: "oauth",
    wellKnown: `${issuer}/.well-known/openid-configuration`,
    issuer,
    clientId: e.HERALD_OIDC_CLIENT_ID,
    clientSecret: e.HERALD_OIDC_CLIENT_SECRET,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    // The ID token is validated (idToken: true); the profile (email above all) comes from the
    // userinfo endpoint, since providers need not repeat scope claims in the ID token
    // (oidc-provider does not, by default).
    userinfo: {
      request: ({ client, tokens }) => client.userinfo(tokens.access_token ?? ""),
    },
    checks: ["pkce", "state"],
    // The company's identity provider vouches for the email; the user must already be invited.
    allowDangerousEmailAccountLinking: true,
    profile: (p: { sub: string; email?: string; name?: string }) => ({ id: p.sub, email: p.email ? normalizeEmail(p.email) : null, name: p.name ?? null }),
  };
}

export const EMAIL_UNVERIFIED = "EmailUnverified";

/**
 * The identity provider says it has not verified the email (email_verified: false in the ID token,
 * already validated by then, or in the userinfo answer). Herald matches SSO users to invited
 * people by email, so an unverified one would let anyone who can type an invitee's address into
 * the provider sign in as them. A provider that sends no email_verified at all is trusted.
 */
export function emailUnverified(profile: unknown, idToken: string | undefined): boolean {
  const isFalse = (v: unknown) => v === false || v === "false";
  if (isFalse((profile as { email_verified?: unknown } | undefined)?.email_verified)) return true;
  const payload = idToken?.split(".")[1];
  if (!payload) return false;
  try {
    return isFalse((JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { email_verified?: unknown }).email_verified);
  } catch {
    return true; // a token we cannot read vouches for nothing
  }
}

export function oidcConfigured(): { id: string; name: string } | null {
  const p = oidcProvider();
  return p ? { id: p.id, name: p.name } : null;
}

let cached: NextAuthOptions | undefined;

export function authOptions(): NextAuthOptions {
  if (cached) return cached;
  pinNextAuthUrl();
  const oidc = oidcProvider();
  cached = {
    secret: authSecret(),
    adapter: heraldAdapter(),
    useSecureCookies: secureCookies(),
    session: { strategy: "jwt", maxAge: SESSION_TTL_S },
    pages: { signIn: "/sign-in", error: "/sign-in", verifyRequest: "/sign-in/check-email" },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "Password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        authorize: (credentials, req) => authorizePassword(credentials, req.headers ?? {}),
      }),
      // Always registered, so invitation links work without SMTP; sending says when SMTP is missing.
      EmailProvider({
        from: env().HERALD_EMAIL_FROM ?? "herald@localhost",
        maxAge: EMAIL_LINK_TTL_S,
        normalizeIdentifier: normalizeEmail,
        sendVerificationRequest: sendSignInLink,
      }),
      ...(oidc ? [oidc] : []),
    ],
    callbacks: {
      async signIn({ user, account, email, profile }) {
        if (account?.provider === "credentials") return true;
        if (account?.provider === "email" && email?.verificationRequest) return true;
        // Matching by email is only sound if the provider vouches for the address.
        if (account?.provider === OIDC_PROVIDER_ID && emailUnverified(profile, account.id_token))
          return `/sign-in?error=${EMAIL_UNVERIFIED}`;
        // Email link followed, or OIDC: only people Herald knows (invited or bootstrapped).
        if (!user.email) return false;
        return (await db.user.count({ where: { email: normalizeEmail(user.email) } })) > 0;
      },
      async jwt({ token, user }) {
        if (user) {
          // A fresh sign-in: the cookie gets a new server-side session and nothing else of note.
          const dbUser = await db.user.findUniqueOrThrow({ where: { email: normalizeEmail(user.email!) }, select: { id: true, email: true, name: true } });
          const { sid } = await createUserSession(dbUser.id);
          return { sub: dbUser.id, email: dbUser.email, name: dbUser.name, sid };
        }
        return token;
      },
      async session({ token }) {
        const user = typeof token.sid === "string" ? await findSessionUser(token.sid) : null;
        if (!user) throw new SessionEnded(); // next-auth clears the cookie and answers {}
        return { user: { id: user.id, email: user.email, name: user.name }, expires: new Date(Date.now() + SESSION_TTL_S * 1000).toISOString() };
      },
    },
    events: {
      async signOut({ token }) {
        if (typeof token?.sid === "string") await endSession(token.sid);
      },
    },
    // next-auth's default logger prints whole objects; ours keeps codes and messages only.
    logger: {
      error: (code, meta) => {
        const message = meta instanceof Error ? meta.message : (meta as { message?: string } | undefined)?.message;
        if (code === "JWT_SESSION_ERROR") return logger.debug({ code, message }, "next-auth session ended");
        logger.warn({ code, message }, "next-auth error");
      },
      warn: (code) => logger.debug({ code }, "next-auth warning"),
      debug: () => undefined,
    },
  };
  return cached;
}
