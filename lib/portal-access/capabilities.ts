import { forbidden } from "../http/errors";
import type { Principal } from "../auth/principal";

// What a portal session may do. Three inputs, the most restrictive wins:
// - Svix's `capabilities` on app-portal-access (ViewBase, ViewEndpointSecret,
//   ManageEndpointSecret, CreateAttempts, ManageEndpoint). Without them a link has all five,
//   or, read-only, ViewBase and ViewEndpointSecret (what Herald's read-only links always did);
// - `readOnly`: nothing that changes anything (it strips every capability but the two views);
// - a magic link's `featureFlags`: flags starting with `portal.` are RESTRICTIONS (below); any
//   other flag unlocks the event types tagged with that `featureFlag` in the catalog (Svix
//   semantics: such event types are hidden from portals without the flag).
// Operators (API keys) have every capability. The server enforces each one: the route builder
// checks the capability a mutating route declares, and the handlers of finer actions theirs.

export const SVIX_CAPABILITIES = ["ViewBase", "ViewEndpointSecret", "ManageEndpointSecret", "CreateAttempts", "ManageEndpoint"] as const;
export type SvixCapability = (typeof SVIX_CAPABILITIES)[number];

export const PORTAL_RESTRICTIONS = {
  /** Hides Replay (single message and range replay) and refuses it. */
  "portal.no-replay": "replay",
  /** Hides Retry (one delivery, and "retry all" of a failure group) and refuses it. */
  "portal.no-retry": "retry",
  /** The signing secret is neither shown nor rotatable in the portal. */
  "portal.no-secrets": "secrets",
  /** Hides "Send sample event" and refuses send-example. */
  "portal.no-send-example": "sendExample",
} as const;

export type PortalRestriction = keyof typeof PORTAL_RESTRICTIONS;
/**
 * write: manage endpoints (ManageEndpoint). secrets: see signing secrets (ViewEndpointSecret).
 * rotateSecret: rotate them (ManageEndpointSecret). retry, replay, sendExample: make new attempts
 * or messages (CreateAttempts). tasks: cancel the portal's tasks (whoever may start one).
 */
export type Capability = "write" | "secrets" | "rotateSecret" | "retry" | "replay" | "sendExample" | "tasks";
export type Capabilities = Record<Capability, boolean>;

const ALL: Capability[] = ["write", "secrets", "rotateSecret", "retry", "replay", "sendExample", "tasks"];
export const ALL_CAPABILITIES = Object.fromEntries(ALL.map((c) => [c, true])) as Capabilities;

/** The Svix capabilities a link has: the ones it was given, or those its read-only setting implies. */
export function svixCapabilitiesOf(readOnly: boolean, given: readonly string[] | null): SvixCapability[] {
  const base: readonly SvixCapability[] = given && given.length > 0 ? (given as SvixCapability[]) : readOnly ? ["ViewBase", "ViewEndpointSecret"] : SVIX_CAPABILITIES;
  const views: SvixCapability[] = ["ViewBase", "ViewEndpointSecret"];
  return SVIX_CAPABILITIES.filter((c) => base.includes(c) && (!readOnly || views.includes(c)));
}

/** Capabilities of a portal session from its read-only setting, its Svix capabilities and its flags. */
export function capabilitiesFrom(readOnly: boolean, featureFlags: string[], svix: readonly string[] | null = null): Capabilities {
  const has = new Set(svixCapabilitiesOf(readOnly, svix));
  const attempts = has.has("CreateAttempts");
  const caps: Capabilities = {
    write: has.has("ManageEndpoint"),
    secrets: has.has("ViewEndpointSecret"),
    rotateSecret: has.has("ManageEndpointSecret"),
    retry: attempts,
    replay: attempts,
    sendExample: attempts,
    tasks: attempts,
  };
  for (const flag of featureFlags) {
    const cap = PORTAL_RESTRICTIONS[flag as PortalRestriction] as Capability | undefined;
    if (cap) caps[cap] = false;
  }
  if (!caps.secrets) caps.rotateSecret = false; // portal.no-secrets: neither shown nor rotatable
  caps.tasks = caps.retry || caps.replay;
  return caps;
}

export function capabilitiesOf(p: Principal): Capabilities {
  if (p.kind === "operator") return ALL_CAPABILITIES;
  return capabilitiesFrom(p.readOnly, p.featureFlags, p.capabilities);
}

/** 403 for a portal session that lacks `cap`; operators always pass. */
export function assertCapability(p: Principal, cap: Capability): void {
  if (p.kind !== "portal") return;
  if (capabilitiesOf(p)[cap]) return;
  if (p.readOnly) throw forbidden("This portal session is read-only");
  throw forbidden(`This portal link does not allow this action (${cap})`);
}

/** Event-type feature flags a principal may see: null = all (operators). */
export function visibleFeatureFlags(p: Principal): Set<string> | null {
  return p.kind === "operator" ? null : new Set(p.featureFlags.filter((f) => !f.startsWith("portal.")));
}
