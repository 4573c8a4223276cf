import { errorResponse } from "@/lib/http/route";
import { ApiError, unauthorized } from "@/lib/http/errors";
import { sessionUserOfRequest } from "@/lib/accounts/session-cookie";
import { endUserSessions } from "@/lib/accounts/sessions";

// POST /api/account/sign-out-everywhere — ends every session of the signed-in user (every
// browser, this one included). Cookie-authenticated, so it needs the custom header
// `x-herald-csrf: 1` that a cross-site form cannot send. Beside next-auth's /api/auth/* routes
// (they own that path) and outside /api/v1 (it serves operators and integrators alike).
export async function POST(req: Request): Promise<Response> {
  try {
    if (req.headers.get("x-herald-csrf") !== "1")
      throw new ApiError(403, "csrf_header_missing", "Send the header x-herald-csrf: 1 with this request");
    const user = await sessionUserOfRequest(req);
    if (!user) throw unauthorized("Not signed in");
    const ended = await endUserSessions(user.id);
    return Response.json({ ended });
  } catch (e) {
    return errorResponse(e);
  }
}
