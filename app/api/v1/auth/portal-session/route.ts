import { route } from "@/lib/http/route";
import { PortalSessionIn } from "@/lib/portal-access/schemas";
import { exchangePortalToken } from "@/lib/portal-access/portal-tokens";

// POST /api/v1/auth/portal-session — exchange a magic-link token for a short-lived portal session
export const POST = route(
  {
    doc: {
      id: "herald.portal-session.create",
      tag: "Authentication",
      summary: "Exchange a portal link's token for a short-lived session token (used by the portal page)",
      responses: { 200: "PortalSessionOut" },
    },
    auth: "public",
    body: PortalSessionIn,
  },
  ({ body }) => exchangePortalToken(body.token),
);
