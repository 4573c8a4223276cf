import { route } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { endpointAlerts } from "@/lib/notifications/endpoint-alerts";

// GET /api/v1/portal/app/{app_id}/endpoint-alerts — the endpoints that are failing or disabled by Herald (the portal's banner)
export const GET = route(
  {
    doc: {
      id: "herald.portal.endpoint-alerts",
      tag: "Portal",
      summary: "The application's endpoints that are failing or were disabled by Herald, since when and why",
      responses: { 200: "AnyObject" },
    },
    auth: "any",
    params: appParams,
  },
  ({ scope, params }) => endpointAlerts(scope, params.app_id),
);
