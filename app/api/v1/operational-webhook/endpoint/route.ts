import { route } from "@/lib/http/route";
import { listQuery } from "@/lib/http/pagination";
import { OperationalEndpointIn } from "@/lib/operational/schemas";
import { createOperationalEndpoint, listOperationalEndpoints } from "@/lib/operational/manage-operational-endpoints";

// GET /api/v1/operational-webhook/endpoint — list the environment's operational webhook endpoints
export const GET = route({ auth: "operator", query: listQuery }, ({ scope, query }) =>
  listOperationalEndpoints(scope.environmentId, query),
);

// POST /api/v1/operational-webhook/endpoint — register an endpoint for operational events
export const POST = route(
  { auth: "operator", write: true, status: 201, body: OperationalEndpointIn },
  ({ scope, body }) => createOperationalEndpoint(scope.environmentId, body),
);
