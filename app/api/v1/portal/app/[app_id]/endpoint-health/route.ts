import { route } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { endpointHealth } from "@/lib/portal/endpoint-health";

// GET /api/v1/portal/app/{app_id}/endpoint-health — per endpoint: attempt success rate and hourly counts, last 24 h
export const GET = route(
  {
    doc: {
      id: "herald.portal.endpoint-health",
      tag: "Portal",
      summary: "Per endpoint: attempt success rate and hourly counts, last 24 h",
      responses: { 200: "AnyObject" },
    },
    auth: "any",
    params: appParams,
  },
  ({ scope, params }) => endpointHealth(scope, params.app_id),
);
