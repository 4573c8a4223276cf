// The portal session, held in memory and mirrored somewhere that survives a reload of this tab
// or frame: sessionStorage when the browser allows it, else window.name.
// No cookies: the portal runs in iframes on other sites, where third-party cookies (and, in
// Chromium with third-party cookies blocked, storage too: sessionStorage throws SecurityError)
// are refused; the session travels as `Authorization: Bearer hps_…`.
// window.name belongs to the browsing context (the frame), not to the document or its storage
// partition, so a reload keeps it and no storage permission is needed. Only documents later
// loaded into this very frame can read it; it holds nothing but the one-hour session (never the
// link token), is cleared when the session ends, and portal links to other sites open in a new
// tab (a fresh browsing context with an empty name).
// The magic-link token is kept in memory only: while the tab lives, an expired one-hour session
// is renewed from it; after a reload the kept session is used until it expires, and then the
// user needs the link again.

import type { Capabilities } from "@/lib/portal-access/capabilities";
export type { Capabilities };

export type PortalSession = {
  session: string;
  expiresAt: string;
  readOnly: boolean;
  featureFlags: string[];
  capabilities: Capabilities;
  application: { id: string; uid: string | null; name: string };
  /** Opened by an application member from /portal/sign-in (absent in sessions stored before). */
  member?: boolean;
  /**
   * The `?env=` the link carried (lib/environments/portal-embedding.ts), kept with the session
   * so that, framed, the portal keeps it in its address and a reload inside the frame is allowed
   * by the same environment's embedding origins. Set here, not by the server.
   */
  embedEnv?: string;
};

/** Why there is no usable session, in words the page can show. */
export type EndedReason =
  | "no_session"
  | "link_invalid"
  | "link_expired"
  | "link_revoked"
  | "session_expired"
  | "session_revoked"
  | "session_invalid"
  | "signed_out";

export type SessionState =
  | { status: "loading" }
  | { status: "active"; session: PortalSession }
  | { status: "ended"; reason: EndedReason; detail?: string };

const STORAGE_KEY = "herald.portal.session";
// Why the last session of this tab ended, so a reload repeats the same message.
const ENDED_KEY = "herald.portal.ended";

let state: SessionState = { status: "loading" };
let linkToken: string | null = null;
const listeners = new Set<() => void>();

function storage(): Storage | null {
  // Throws (SecurityError) in third-party iframes when the browser blocks site data there.
  try {
    const s = window.sessionStorage;
    s.getItem(STORAGE_KEY);
    return s;
  } catch {
    return null;
  }
}

// window.name fallback: `herald-portal:` + JSON of { session } or { ended }. Anything else in
// window.name (set by someone else) is left alone.
const NAME_PREFIX = "herald-portal:";
type NameRecord = { session?: PortalSession; ended?: EndedReason };

function readName(): NameRecord {
  try {
    if (!window.name.startsWith(NAME_PREFIX)) return {};
    return JSON.parse(window.name.slice(NAME_PREFIX.length)) as NameRecord;
  } catch {
    return {};
  }
}

function writeName(record: NameRecord | null) {
  try {
    if (record) window.name = NAME_PREFIX + JSON.stringify(record);
    else if (window.name.startsWith(NAME_PREFIX)) window.name = "";
  } catch {
    /* nothing to keep it in: memory only */
  }
}

function set(next: SessionState) {
  state = next;
  for (const l of listeners) l();
}

export function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const getState = () => state;
export const getLinkToken = () => linkToken;
export const setLinkToken = (token: string | null) => (linkToken = token);

/** `?env=<environment id>` of this page's address, else the one the current session kept. */
export function embedEnvOf(search: string): string | undefined {
  const fromUrl = new URLSearchParams(search).get("env");
  if (fromUrl && /^env_[0-9a-z]{26}$/.test(fromUrl)) return fromUrl;
  return state.status === "active" ? state.session.embedEnv : undefined;
}

export function startSession(session: PortalSession) {
  const s = storage();
  try {
    if (!s) throw new Error("no storage");
    s.setItem(STORAGE_KEY, JSON.stringify(session));
    s.removeItem(ENDED_KEY);
    writeName(null);
  } catch {
    // Storage blocked (third-party frame) or full: the frame's name survives a reload.
    writeName({ session });
  }
  set({ status: "active", session });
}

export function endSession(reason: EndedReason, detail?: string) {
  const s = storage();
  try {
    if (!s) throw new Error("no storage");
    s.removeItem(STORAGE_KEY);
    if (reason !== "no_session") s.setItem(ENDED_KEY, reason);
    writeName(null);
  } catch {
    writeName(reason !== "no_session" ? { ended: reason } : null);
  }
  set({ status: "ended", reason, ...(detail ? { detail } : {}) });
}

/** Why this tab's last session ended, if it did (survives a reload). */
function endedReason(): EndedReason | null {
  try {
    const r = storage()?.getItem(ENDED_KEY) ?? readName().ended;
    return r && r in ENDED_MESSAGES ? (r as EndedReason) : null;
  } catch {
    return null;
  }
}

/** On first load without a link: the session stored by an earlier page view of this tab, if any. */
function restoreSession(): PortalSession | null {
  if (state.status === "active") return state.session;
  try {
    const raw = storage()?.getItem(STORAGE_KEY);
    const s = raw ? (JSON.parse(raw) as PortalSession) : readName().session;
    if (!s) return null;
    if (typeof s.session !== "string" || new Date(s.expiresAt).getTime() <= Date.now()) return null;
    return s;
  } catch {
    return null;
  }
}

/**
 * Without a link: starts the session stored by an earlier page view of this tab, or ends with
 * why there is none. True when a session is active.
 */
export function resumeSession(): boolean {
  const stored = restoreSession();
  if (stored) startSession(stored);
  else endSession(endedReason() ?? "no_session");
  return stored !== null;
}

export const ENDED_MESSAGES: Record<EndedReason, { title: string; body: string }> = {
  no_session: {
    title: "Open the portal from your link",
    body: "This page needs a portal link. Ask the provider of this service for a link to your webhook portal, or open it again from their dashboard.",
  },
  link_invalid: {
    title: "This portal link is not valid",
    body: "The link is incomplete or was never issued. Copy the whole link again, or ask for a new one.",
  },
  link_expired: {
    title: "This portal link has expired",
    body: "Portal links are valid for a limited time. Ask the provider of this service for a new link.",
  },
  link_revoked: {
    title: "This portal link was revoked",
    body: "Access through this link has been withdrawn. Ask the provider of this service for a new link.",
  },
  session_expired: {
    title: "Your portal session has expired",
    body: "For your security, sessions last one hour. Open your portal link again to continue.",
  },
  session_revoked: {
    title: "Portal access was revoked",
    body: "The provider of this service has withdrawn access to this portal. Ask them for a new link.",
  },
  session_invalid: {
    title: "Your portal session has ended",
    body: "The session is no longer valid. Open your portal link again to continue.",
  },
  signed_out: {
    title: "You have signed out",
    body: "Open your portal link again to come back.",
  },
};

/** Maps the API's 401 codes (docs/portal.md) to a reason. */
export function reasonForCode(code: string | undefined): EndedReason {
  switch (code) {
    case "portal_link_expired":
      return "link_expired";
    case "portal_link_revoked":
      return "link_revoked";
    case "portal_link_invalid":
      return "link_invalid";
    case "portal_session_expired":
      return "session_expired";
    case "portal_session_revoked":
      return "session_revoked";
    default:
      return "session_invalid";
  }
}
