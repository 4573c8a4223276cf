import { ApiFailure, createApiClient, failure, jsonRequest, reach, type RequestOptions } from "@/lib/http/api-client";
import {
  embedEnvOf,
  endSession,
  getLinkToken,
  getState,
  reasonForCode,
  setLinkToken,
  startSession,
  type PortalSession,
} from "./session-store";

// The portal's only way to the API: same-origin fetches with the session as a bearer header.

export { ApiFailure, UNREACHABLE, type FieldError } from "@/lib/http/api-client";

const RENEW_BEFORE_MS = 60_000;

/** Exchanges a magic-link token for a session (the token itself stays in memory only). */
export async function openLink(token: string): Promise<PortalSession> {
  const res = await reach("/api/v1/auth/portal-session", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token }),
    cache: "no-store",
  });
  if (!res.ok) throw await failure(res);
  setLinkToken(token);
  const embedEnv = embedEnvOf(window.location.search);
  const session = { ...((await res.json()) as PortalSession), ...(embedEnv ? { embedEnv } : {}) };
  startSession(session);
  return session;
}

async function renew(): Promise<boolean> {
  const token = getLinkToken();
  if (!token) return false;
  try {
    await openLink(token);
    return true;
  } catch (e) {
    if (e instanceof ApiFailure && e.status === 401) {
      setLinkToken(null);
      endSession(reasonForCode(e.code), e.message);
    }
    return false;
  }
}

function activeSession(): PortalSession {
  const s = getState();
  if (s.status !== "active") throw new ApiFailure(401, "portal_session_invalid", "No portal session");
  return s.session;
}

async function send(path: string, init: RequestOptions): Promise<Response> {
  let session = activeSession();
  if (new Date(session.expiresAt).getTime() - Date.now() < RENEW_BEFORE_MS && getLinkToken()) {
    await renew();
    session = activeSession();
  }
  const go = (s: PortalSession) => reach(`/api/v1${path}`, jsonRequest(init, { authorization: `Bearer ${s.session}` }));
  let res = await go(session);
  if (res.status === 401) {
    const err = await failure(res);
    // An expired session is renewed once from the link, if this tab still has it.
    if (err.code === "portal_session_expired" && (await renew())) res = await go(activeSession());
    else {
      endSession(reasonForCode(err.code), err.message);
      throw err;
    }
  }
  return res;
}

export const client = createApiClient(send);
export const { api, streamEvents } = client;

export async function signOut() {
  try {
    await api("/auth/logout", { method: "POST" });
  } finally {
    setLinkToken(null);
    endSession("signed_out");
  }
}
