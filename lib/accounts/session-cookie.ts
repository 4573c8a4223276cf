import { decode } from "next-auth/jwt";
import { authSecret, sessionCookieName } from "./auth-secret";
import { ApiError, unauthorized } from "../http/errors";
import { findSessionUser, type SessionUser } from "./sessions";

// Reads next-auth's session cookie outside next-auth (the route builder, server components):
// decrypts the token, then checks its session id against user_session (sessions.ts).

function cookieValue(cookieHeader: string, name: string): string | null {
  const jar = new Map<string, string>();
  for (const part of cookieHeader.split(";")) {
    const i = part.indexOf("=");
    if (i > 0) jar.set(part.slice(0, i).trim(), part.slice(i + 1).trim());
  }
  if (jar.has(name)) return jar.get(name)!;
  // next-auth splits cookies over 4 KB into name.0, name.1, ...; ours are far smaller, but be exact.
  let out = "";
  for (let i = 0; jar.has(`${name}.${i}`); i++) out += jar.get(`${name}.${i}`);
  return out || null;
}

/** The session id inside a next-auth session token, or null. */
async function sessionIdOfToken(token: string | null): Promise<string | null> {
  if (!token) return null;
  try {
    const jwt = await decode({ token, secret: authSecret() });
    return typeof jwt?.sid === "string" ? jwt.sid : null;
  } catch {
    return null; // not ours, tampered with, or from before a key rotation
  }
}

export async function userFromSessionToken(token: string | null): Promise<SessionUser | null> {
  const sid = await sessionIdOfToken(token);
  return sid ? findSessionUser(sid) : null;
}

/** The signed-in user of a request's Cookie header, or null. */
export async function userFromCookieHeader(cookieHeader: string | null): Promise<SessionUser | null> {
  return userFromSessionToken(cookieHeader ? cookieValue(cookieHeader, sessionCookieName()) : null);
}

/** Whether the Cookie header carries a session cookie at all (valid or not). */
export const hasSessionCookie = (cookieHeader: string | null): boolean =>
  cookieHeader !== null && cookieValue(cookieHeader, sessionCookieName()) !== null;

/** The session id inside the cookie (for sign-out), or null. */
export async function sessionIdFromCookieHeader(cookieHeader: string | null): Promise<string | null> {
  return sessionIdOfToken(cookieHeader ? cookieValue(cookieHeader, sessionCookieName()) : null);
}

export const sessionUserOfRequest = (req: Request) => userFromCookieHeader(req.headers.get("cookie"));

/**
 * The signed-in user of a cookie-authenticated account request (/api/account/*) and its session
 * id. Such a request must carry the header `x-herald-csrf: 1`, which a cross-site form cannot send.
 */
export async function accountRequest(req: Request): Promise<{ user: SessionUser; sessionId: string }> {
  if (req.headers.get("x-herald-csrf") !== "1")
    throw new ApiError(403, "csrf_header_missing", "Send the header x-herald-csrf: 1 with this request");
  const sessionId = await sessionIdFromCookieHeader(req.headers.get("cookie"));
  const user = sessionId ? await findSessionUser(sessionId) : null;
  if (!user || !sessionId) throw unauthorized("Not signed in");
  return { user, sessionId };
}
