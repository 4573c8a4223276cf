import { route } from "@/lib/http/route";
import { endpointParams, statsQuery } from "@/lib/http/params";
import { endpointStats } from "@/lib/endpoints/manage-endpoints";

// GET /api/v1/app/{app_id}/endpoint/{endpoint_id}/stats — delivery counts by status
export const GET = route(
  { auth: "any", params: endpointParams, query: statsQuery },
  ({ scope, params, query }) => endpointStats(scope, params.app_id, params.endpoint_id, query),
);
