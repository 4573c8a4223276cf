import { route } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { AppPortalAccessIn } from "@/lib/portal-access/schemas";
import { createPortalAccess } from "@/lib/portal-access/portal-tokens";

// POST /api/v1/auth/app-portal-access/{app_id} — a magic link that opens the portal for one application
export const POST = route(
  {
    doc: {
      id: "v1.authentication.app-portal-access",
      tag: "Authentication",
      summary: "A magic link to the portal for one application (expires, default 7 days)",
      svix: true,
      responses: { 200: "AppPortalAccessOut" },
    },
    auth: "operator",
    write: true,
    params: appParams,
    body: AppPortalAccessIn,
  },
  ({ scope, params, body }) => createPortalAccess(scope, params.app_id, body),
);
