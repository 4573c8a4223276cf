import { readEventStream } from "@/lib/http/read-event-stream";
import {
  endSession,
  getLinkToken,
  getState,
  reasonForCode,
  setLinkToken,
  startSession,
  type PortalSession,
} from "./session-store";

// The portal's only way to the API: same-origin fetches with the session as a bearer header.

export type FieldError = { loc: (string | number)[]; msg: string; type: string };

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly fields: FieldError[] = [],
  ) {
    super(detail);
  }
}

const RENEW_BEFORE_MS = 60_000;

/** Status 0: no answer at all (offline, Herald down, a proxy dropping the connection). */
export const UNREACHABLE = "unreachable";

// fetch() rejects with a TypeError ("Failed to fetch") when no answer comes back; pages show
// this plain sentence instead, and the query layer keeps retrying.
async function reach(input: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (e) {
    if (init.signal?.aborted) throw e;
    throw new ApiFailure(0, UNREACHABLE, "Herald cannot be reached right now. Check your connection, then try again.");
  }
}

async function failure(res: Response): Promise<ApiFailure> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    /* not JSON */
  }
  const b = (body ?? {}) as { code?: string; detail?: unknown };
  if (res.status === 422 && Array.isArray(b.detail)) {
    const fields = b.detail as FieldError[];
    const text = fields
      .map((f) => `${f.loc.filter((l) => l !== "body" && l !== "query").join(".")}: ${f.msg}`)
      .join("; ");
    return new ApiFailure(422, "validation", text, fields);
  }
  // A 5xx (or a proxy's error page) has nothing the user can act on: say so plainly.
  if (res.status >= 500)
    return new ApiFailure(res.status, b.code ?? `http_${res.status}`, "Something went wrong on Herald's side. Try again in a moment.");
  return new ApiFailure(
    res.status,
    b.code ?? `http_${res.status}`,
    typeof b.detail === "string" ? b.detail : `The request was refused (HTTP ${res.status}).`,
  );
}

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
  const session = (await res.json()) as PortalSession;
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

type Init = { method?: string; body?: unknown; signal?: AbortSignal; headers?: Record<string, string> };

async function send(path: string, init: Init): Promise<Response> {
  let session = activeSession();
  if (new Date(session.expiresAt).getTime() - Date.now() < RENEW_BEFORE_MS && getLinkToken()) {
    await renew();
    session = activeSession();
  }
  const go = (s: PortalSession) =>
    reach(`/api/v1${path}`, {
      method: init.method ?? "GET",
      headers: {
        authorization: `Bearer ${s.session}`,
        ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal ?? null,
      cache: "no-store",
    });
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

/** JSON in, JSON out; throws ApiFailure for anything but 2xx. */
export async function api<T>(path: string, init: Init = {}): Promise<T> {
  const res = await send(path, init);
  if (!res.ok) throw await failure(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/**
 * Reads a text/event-stream with the bearer header (EventSource cannot send one) and calls
 * `onEvent` for each event until the stream ends or `signal` aborts.
 */
export async function streamEvents(
  path: string,
  onEvent: (event: { event: string; data: string }) => void,
  signal: AbortSignal,
): Promise<void> {
  const res = await send(path, { signal, headers: { accept: "text/event-stream" } });
  if (!res.ok || !res.body) throw await failure(res);
  await readEventStream(res.body, onEvent);
}

export async function signOut() {
  try {
    await api("/auth/logout", { method: "POST" });
  } finally {
    setLinkToken(null);
    endSession("signed_out");
  }
}
