import { forbidden } from "@/lib/http/errors";
import { noContent, route } from "@/lib/http/route";
import { logoutPortalSession } from "@/lib/portal-access/portal-tokens";

// POST /api/v1/auth/logout — end the calling portal session (API keys are revoked, not logged out)
export const POST = route(
  {
    doc: {
      id: "v1.authentication.logout",
      tag: "Authentication",
      summary: "End the calling portal session (API keys cannot log out)",
      svix: true,
      responses: { 204: null },
    },
    auth: "any",
  },
  async ({ principal }) => {
    if (principal.kind !== "portal") throw forbidden("Only portal sessions can log out; API keys are revoked instead");
    await logoutPortalSession(principal.sessionId);
    return noContent;
  },
);
