import { sessionUserOfRequest } from "@/lib/accounts/session-cookie";
import { memberApplications, openMemberPortal } from "@/lib/accounts/portal-sign-in";
import { env } from "@/lib/env";

// GET /portal/sign-in/continue[?app=app_…] — where a portal sign-in link lands: opens the portal
// of the named application, or of the only one, or shows the picker. POST (the picker's form)
// opens the chosen one. Not signed in, or not a member: back to /portal/sign-in.
// (Opening mints a portal link for the signed-in user into their own browser's URL fragment;
// a cross-site request can make that happen but never learn the link.)

const to = (path: string) => Response.redirect(`${env().HERALD_PUBLIC_URL}${path}`, 303);

async function open(req: Request, requested: string | null): Promise<Response> {
  const user = await sessionUserOfRequest(req);
  if (!user) return to(`/portal/sign-in${requested ? `?app=${encodeURIComponent(requested)}` : ""}`);
  const apps = await memberApplications(user.id);
  const chosen = requested ? apps.find((a) => a.id === requested) : apps.length === 1 ? apps[0] : undefined;
  if (!chosen) return to(apps.length === 0 ? "/portal/sign-in?error=AccessDenied" : "/portal/sign-in/choose");
  const url = await openMemberPortal(user.id, chosen.id);
  return url ? Response.redirect(url, 303) : to("/portal/sign-in?error=AccessDenied");
}

export async function GET(req: Request) {
  return open(req, new URL(req.url).searchParams.get("app"));
}

export async function POST(req: Request) {
  const form = await req.formData().catch(() => null);
  const app = form?.get("app");
  return open(req, typeof app === "string" ? app : null);
}
