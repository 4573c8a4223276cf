import { forbidden } from "@/lib/http/errors";
import { noContent, route } from "@/lib/http/route";
import { logoutPortal } from "@/lib/portal-access/portal-tokens";

// POST /api/v1/auth/logout — end the calling portal session, or invalidate the portal token used
// as the bearer (API keys are revoked, not logged out)
export const POST = route(
  {
    doc: {
      id: "v1.authentication.logout",
      tag: "Authentication",
      summary: "End the calling portal session, or invalidate the portal token (hpt_) used as the bearer and its sessions (API keys cannot log out)",
      svix: true,
      responses: { 204: null },
    },
    auth: "any",
  },
  async ({ principal }) => {
    if (principal.kind !== "portal") throw forbidden("Only portal sessions can log out; API keys are revoked instead");
    await logoutPortal(principal);
    return noContent;
  },
);
