import { route } from "@/lib/http/route";
import { endpointParams, statsQuery } from "@/lib/http/params";
import { endpointStats } from "@/lib/endpoints/manage-endpoints";

// GET /api/v1/app/{app_id}/endpoint/{endpoint_id}/stats — delivery counts by status
export const GET = route(
  {
    doc: {
      id: "v1.endpoint.get-stats",
      tag: "Endpoint",
      summary: "Delivery counts by status",
      svix: true,
      responses: { 200: "EndpointStats" },
    },
    auth: "any",
    params: endpointParams,
    query: statsQuery,
  },
  ({ scope, params, query }) => endpointStats(scope, params.app_id, params.endpoint_id, query),
);
