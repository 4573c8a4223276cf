import { errorResponse } from "@/lib/http/route";
import { accountRequest } from "@/lib/accounts/session-cookie";
import { signOutEverywhere } from "@/lib/accounts/sessions";

// POST /api/account/sign-out-everywhere — ends every session of the signed-in user (every
// browser, this one included, and the member portals they opened). Cookie-authenticated, so it needs the custom header
// `x-herald-csrf: 1` that a cross-site form cannot send. Beside next-auth's /api/auth/* routes
// (they own that path) and outside /api/v1 (it serves operators and integrators alike).
export async function POST(req: Request): Promise<Response> {
  try {
    const { user } = await accountRequest(req);
    const { sessions, portalLinks } = await signOutEverywhere(user.id);
    return Response.json({ ended: sessions, portalLinks });
  } catch (e) {
    return errorResponse(e);
  }
}
