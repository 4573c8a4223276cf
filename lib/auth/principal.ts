import { forbidden } from "../http/errors";

// Who is calling. Operators (API keys) see their whole environment; a portal credential (a
// session, or the portal link's token) sees one application of it. Domain functions take a Scope and put it in every query's where clause.

export type OperatorRole = "owner" | "admin" | "viewer";

/**
 * An operator: an API key (role owner: keys are the environment's root credential) or a signed-in
 * member of the environment (the console, through the next-auth session cookie) with their role.
 */
export type OperatorPrincipal = {
  kind: "operator";
  environmentId: string;
  via: "api_key" | "session";
  apiKeyId: string | null;
  userId: string | null;
  role: OperatorRole;
};
export type PortalPrincipal = {
  kind: "portal";
  environmentId: string;
  applicationId: string;
  readOnly: boolean;
  featureFlags: string[];
  /** Svix's capabilities the link was given (lib/portal-access/capabilities.ts); null: none given. */
  capabilities: string[] | null;
  /** The portal link's token: the bearer itself (hpt_, as in Svix), or what the session came from. */
  tokenId: string;
  /** The session (hps_) that is the bearer; null when the bearer is the link's token. */
  sessionId: string | null;
  expiresAt: Date;
  /** The application member the link was minted for (/portal/sign-in); null for an operator's magic link. */
  userId: string | null;
};
export type Principal = OperatorPrincipal | PortalPrincipal;

export type Scope = { environmentId: string; applicationId?: string };

export function scopeOf(p: Principal): Scope {
  return p.kind === "portal"
    ? { environmentId: p.environmentId, applicationId: p.applicationId }
    : { environmentId: p.environmentId };
}

export function assertCanWrite(p: Principal): void {
  if (p.kind === "portal" && p.readOnly) throw forbidden("This portal session is read-only");
  if (p.kind === "operator" && p.role === "viewer") throw forbidden("Your role in this environment (viewer) is read-only");
}

/**
 * API keys: owners only. A key acts as owner (above), so an admin who could mint one would hold
 * the owner role they may not grant themselves.
 */
export function assertOperatorOwner(p: Principal): asserts p is OperatorPrincipal {
  if (p.kind !== "operator") throw forbidden("This operation needs an operator");
  if (p.role !== "owner")
    throw forbidden(`API keys act with the owner role, so only an owner creates or revokes them; yours is ${p.role}`);
}

/** Members: owners and admins only (an API key counts as owner). */
export function assertOperatorAdmin(p: Principal): asserts p is OperatorPrincipal {
  if (p.kind !== "operator") throw forbidden("This operation needs an operator");
  if (p.role !== "owner" && p.role !== "admin") throw forbidden(`This operation needs the owner or admin role; yours is ${p.role}`);
}
