import { route } from "@/lib/http/route";
import { attemptListQuery, endpointParams } from "@/lib/http/params";
import { listAttemptsByEndpoint } from "@/lib/attempts/query-attempts";

// GET /api/v1/app/{app_id}/attempt/endpoint/{endpoint_id} — attempts made to an endpoint, newest first
export const GET = route({ auth: "any", params: endpointParams, query: attemptListQuery }, ({ scope, params, query }) =>
  listAttemptsByEndpoint(scope, params.app_id, params.endpoint_id, query),
);
