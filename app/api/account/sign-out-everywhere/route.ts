import { errorResponse } from "@/lib/http/route";
import { ApiError, unauthorized } from "@/lib/http/errors";
import { sessionUserOfRequest } from "@/lib/accounts/session-cookie";
import { signOutEverywhere } from "@/lib/accounts/sessions";

// POST /api/account/sign-out-everywhere — ends every session of the signed-in user (every
// browser, this one included, and the member portals they opened). Cookie-authenticated, so it needs the custom header
// `x-herald-csrf: 1` that a cross-site form cannot send. Beside next-auth's /api/auth/* routes
// (they own that path) and outside /api/v1 (it serves operators and integrators alike).
export async function POST(req: Request): Promise<Response> {
  try {
    if (req.headers.get("x-herald-csrf") !== "1")
      throw new ApiError(403, "csrf_header_missing", "Send the header x-herald-csrf: 1 with this request");
    const user = await sessionUserOfRequest(req);
    if (!user) throw unauthorized("Not signed in");
    const { sessions, portalLinks } = await signOutEverywhere(user.id);
    return Response.json({ ended: sessions, portalLinks });
  } catch (e) {
    return errorResponse(e);
  }
}
