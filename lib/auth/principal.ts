import { forbidden } from "../http/errors";

// Who is calling. Operators (API keys) see their whole environment; a portal credential (a
// session, or the portal link's token) sees one application of it. Domain functions take a Scope and put it in every query's where clause.

export type OperatorPrincipal = { kind: "operator"; environmentId: string; apiKeyId: string };
export type PortalPrincipal = {
  kind: "portal";
  environmentId: string;
  applicationId: string;
  readOnly: boolean;
  featureFlags: string[];
  /** The portal link's token: the bearer itself (hpt_, as in Svix), or what the session came from. */
  tokenId: string;
  /** The session (hps_) that is the bearer; null when the bearer is the link's token. */
  sessionId: string | null;
  expiresAt: Date;
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
}
