import { route } from "@/lib/http/route";
import { attemptListQuery, endpointParams } from "@/lib/http/params";
import { listAttemptsByEndpoint } from "@/lib/attempts/query-attempts";

// GET /api/v1/app/{app_id}/attempt/endpoint/{endpoint_id} — attempts made to an endpoint, newest first
export const GET = route(
  {
    doc: {
      id: "v1.message-attempt.list-by-endpoint",
      tag: "Message Attempt",
      summary: "Attempts made to an endpoint, newest first",
      svix: true,
      responses: { 200: "ListResponse_MessageAttemptOut_" },
    },
    auth: "any",
    params: endpointParams,
    query: attemptListQuery,
  },
  ({ scope, params, query }) => listAttemptsByEndpoint(scope, params.app_id, params.endpoint_id, query),
);
