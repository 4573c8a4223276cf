import { badRequest } from "@/lib/http/errors";
import { errorResponse } from "@/lib/http/route";
import { unsubscribe } from "@/lib/notifications/unsubscribe";

// POST /api/notifications/unsubscribe?token=… — one-click unsubscribe from endpoint alerts
// (RFC 8058: the mail client POSTs "List-Unsubscribe=One-Click"; the /unsubscribe page's button
// posts a form here and is sent back to the page). No sign-in: the signed token is the authority.
// Outside /api/v1: it is not part of the Svix-compatible API.
export async function POST(req: Request): Promise<Response> {
  try {
    const token = new URL(req.url).searchParams.get("token");
    if (!token) throw badRequest("The unsubscribe link has no token; use the link from the email as it is", "unsubscribe_link_invalid");
    const form = new URLSearchParams(await req.text());
    const result = await unsubscribe(token);
    // The page's form (not a mail client): back to the page, which now says it is done.
    if (form.get("from") === "page")
      return new Response(null, { status: 303, headers: { location: `/unsubscribe?token=${encodeURIComponent(token)}&done=1` } });
    return Response.json({ unsubscribed: true, email: result?.email ?? null });
  } catch (e) {
    return errorResponse(e);
  }
}
