import { forbidden } from "@/lib/http/errors";
import { route } from "@/lib/http/route";
import { describePortalSession } from "@/lib/portal-access/portal-tokens";

// GET /api/v1/portal/session — the calling portal session: its application, read-only flag, capabilities, expiry
export const GET = route(
  {
    doc: {
      id: "herald.portal.session",
      tag: "Portal",
      summary: "The calling portal session: its application, read-only flag, capabilities, expiry",
      responses: { 200: "AnyObject" },
    },
    auth: "any",
  },
  ({ principal }) => {
    if (principal.kind !== "portal") throw forbidden("Only portal sessions have a portal session");
    return describePortalSession(principal);
  },
);
