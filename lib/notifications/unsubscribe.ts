import { db } from "../db";
import { env } from "../env";
import { badRequest } from "../http/errors";
import { tokenSigner } from "../tasks/signed-token";

// One-click unsubscribe from endpoint alerts, without signing in: every alert carries a signed
// token naming the membership (purpose "unsubscribe", HMAC with a key derived from
// HERALD_ENCRYPTION_KEY; lib/tasks/signed-token.ts). Two ways in:
// - List-Unsubscribe + List-Unsubscribe-Post (RFC 8058): the mail client POSTs
//   "List-Unsubscribe=One-Click" to /api/notifications/unsubscribe?token=…;
// - the link in the email's footer opens /unsubscribe?token=…, a page with one button (a GET
//   never unsubscribes: link scanners follow every link in an email).
// Turning alerts back on is the portal's Notifications page.

export const UNSUBSCRIBE_TTL_S = 365 * 24 * 60 * 60;

export function unsubscribeLinks(membershipId: string) {
  const token = tokenSigner().sign("unsubscribe", { m: membershipId }, UNSUBSCRIBE_TTL_S);
  const base = env().HERALD_PUBLIC_URL;
  return {
    page: `${base}/unsubscribe?token=${token}`,
    oneClick: `${base}/api/notifications/unsubscribe?token=${token}`,
  };
}

function membershipOf(token: string): string {
  const v = tokenSigner().verify<{ m: unknown }>(token, "unsubscribe");
  if (!v.ok)
    throw badRequest(
      v.reason === "expired"
        ? "This unsubscribe link has expired; turn the alerts off on the portal's Notifications page"
        : "This unsubscribe link is not valid (it may have been cut short when it was copied); use the link from the email as it is",
      "unsubscribe_link_invalid",
    );
  if (typeof v.claims.m !== "string") throw badRequest("This unsubscribe link is not valid", "unsubscribe_link_invalid");
  return v.claims.m;
}

export type UnsubscribeView = { email: string; application: string; subscribed: boolean } | null;

/** What the link is about, for the page; null when the membership is gone (nothing to stop). */
export async function describeUnsubscribe(token: string): Promise<UnsubscribeView> {
  const m = await db.applicationMembership.findUnique({
    where: { id: membershipOf(token) },
    select: { notifyEndpointHealth: true, user: { select: { email: true } }, application: { select: { name: true } } },
  });
  return m ? { email: m.user.email, application: m.application.name, subscribed: m.notifyEndpointHealth } : null;
}

/** Turns the membership's alerts off; idempotent, and a removed membership is simply done. */
export async function unsubscribe(token: string): Promise<UnsubscribeView> {
  const id = membershipOf(token);
  await db.applicationMembership.updateMany({ where: { id }, data: { notifyEndpointHealth: false } });
  return describeUnsubscribe(token);
}
