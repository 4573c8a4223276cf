import { forbidden } from "../http/errors";
import type { Principal } from "../auth/principal";

// What a portal session may do. A magic link's `featureFlags` play two roles:
// - flags starting with `portal.` are RESTRICTIONS on the portal (below); the default link,
//   with no flags, can do everything its read-only setting allows;
// - any other flag unlocks the event types tagged with that `featureFlag` in the catalog
//   (Svix semantics: such event types are hidden from portals without the flag).
// Operators (API keys) have every capability.

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
export type Capability = (typeof PORTAL_RESTRICTIONS)[PortalRestriction] | "write";
export type Capabilities = Record<Capability, boolean>;

const ALL: Capability[] = ["write", ...Object.values(PORTAL_RESTRICTIONS)];

/** Capabilities of a portal session from its read-only setting and its flags. */
export function capabilitiesFrom(readOnly: boolean, featureFlags: string[]): Capabilities {
  const caps = Object.fromEntries(ALL.map((c) => [c, !readOnly])) as Capabilities;
  for (const flag of featureFlags) {
    const cap = PORTAL_RESTRICTIONS[flag as PortalRestriction] as Capability | undefined;
    if (cap) caps[cap] = false;
  }
  // Reading the secret is not a change, so read-only sessions may reveal it unless restricted.
  caps.secrets = !featureFlags.includes("portal.no-secrets");
  return caps;
}

export function capabilitiesOf(p: Principal): Capabilities {
  if (p.kind === "operator") return Object.fromEntries(ALL.map((c) => [c, true])) as Capabilities;
  return capabilitiesFrom(p.readOnly, p.featureFlags);
}

/** 403 for a portal session that lacks `cap`; operators always pass. */
export function assertCapability(p: Principal, cap: Capability): void {
  if (p.kind !== "portal") return;
  if (capabilitiesOf(p)[cap]) return;
  if (cap === "write" || p.readOnly) throw forbidden("This portal session is read-only");
  throw forbidden(`This portal link does not allow this action (${cap})`);
}

/** Event-type feature flags a principal may see: null = all (operators). */
export function visibleFeatureFlags(p: Principal): Set<string> | null {
  return p.kind === "operator" ? null : new Set(p.featureFlags.filter((f) => !f.startsWith("portal.")));
}
