import { route } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { AppPortalAccessIn } from "@/lib/portal-access/schemas";
import { createPortalAccess } from "@/lib/portal-access/portal-tokens";

// POST /api/v1/auth/app-portal-access/{app_id} — a magic link that opens the portal for one application
export const POST = route(
  { auth: "operator", write: true, params: appParams, body: AppPortalAccessIn },
  ({ scope, params, body }) => createPortalAccess(scope, params.app_id, body),
);
