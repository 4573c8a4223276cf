import { noContent, route } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { revokePortalAccess } from "@/lib/portal-access/portal-tokens";

// POST /api/v1/auth/app/{app_id}/expire-all — revoke every portal link and session of an application
export const POST = route(
  {
    doc: {
      id: "v1.authentication.expire-all",
      tag: "Authentication",
      summary: "Revoke every portal link and session of an application",
      responses: { 204: null },
    },
    auth: "operator",
    write: true,
    params: appParams,
  },
  async ({ scope, params }) => {
    await revokePortalAccess(scope, params.app_id);
    return noContent;
  },
);
