import { db } from "../db";
import { forbidden } from "../http/errors";
import type { PortalPrincipal, Principal } from "../auth/principal";
import { mailConfigured } from "../accounts/mail";

// A member's own opt-in to endpoint alerts, set in the portal (GET/PUT /api/v1/portal/notifications).
// Only a member's portal (opened from /portal/sign-in) has a person to email; an operator's magic
// link does not. It is the member's preference, not the application's, so a read-only member may
// change it too.

function memberPortal(p: Principal): PortalPrincipal & { userId: string } {
  if (p.kind !== "portal" || !p.userId)
    throw forbidden("Email alerts belong to an application member: sign in at /portal/sign-in to set yours");
  return p as PortalPrincipal & { userId: string };
}

async function membership(p: PortalPrincipal & { userId: string }) {
  const m = await db.applicationMembership.findUnique({
    where: { applicationId_userId: { applicationId: p.applicationId, userId: p.userId } },
    select: { id: true, notifyEndpointHealth: true, user: { select: { email: true } } },
  });
  // Removing a member deletes their portal links, so this is a race with that removal.
  if (!m) throw forbidden("You are no longer a member of this application");
  return m;
}

const view = (m: { notifyEndpointHealth: boolean; user: { email: string } }) => ({
  email: m.user.email,
  endpointAlerts: m.notifyEndpointHealth,
  // Without SMTP the choice is kept but nothing can be sent; the page says so.
  emailConfigured: mailConfigured(),
});

export async function alertSettings(p: Principal) {
  // A magic link's portal has nobody to email: it reads "not a member" (every portal page may
  // ask), and only setting the choice is refused.
  if (p.kind === "portal" && !p.userId)
    return { email: null, endpointAlerts: false, emailConfigured: mailConfigured(), member: false };
  return { ...view(await membership(memberPortal(p))), member: true };
}

export async function setAlertSettings(p: Principal, input: { endpointAlerts: boolean }) {
  const m = await membership(memberPortal(p));
  const updated = await db.applicationMembership.update({
    where: { id: m.id },
    data: { notifyEndpointHealth: input.endpointAlerts },
    select: { notifyEndpointHealth: true, user: { select: { email: true } } },
  });
  return { ...view(updated), member: true };
}
