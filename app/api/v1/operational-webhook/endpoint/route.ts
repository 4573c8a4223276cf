import { route } from "@/lib/http/route";
import { listQuery } from "@/lib/http/pagination";
import { OperationalEndpointIn } from "@/lib/operational/schemas";
import { createOperationalEndpoint, listOperationalEndpoints } from "@/lib/operational/manage-operational-endpoints";

// GET /api/v1/operational-webhook/endpoint — list the environment's operational webhook endpoints
export const GET = route(
  {
    doc: {
      id: "herald.operational-webhook.list",
      tag: "Operational Webhook",
      summary: "List the environment's operational webhook endpoints",
      responses: { 200: "ListResponse_OperationalEndpointOut_" },
    },
    auth: "operator",
    query: listQuery,
  },
  ({ scope, query }) => listOperationalEndpoints(scope.environmentId, query),
);

// POST /api/v1/operational-webhook/endpoint — register an endpoint for operational events
export const POST = route(
  {
    doc: {
      id: "herald.operational-webhook.create",
      tag: "Operational Webhook",
      summary: "Register an endpoint for operational events (endpoint disabled, message attempt exhausted, ...)",
      responses: { 201: "OperationalEndpointOut" },
    },
    auth: "operator",
    write: true,
    status: 201,
    body: OperationalEndpointIn,
  },
  ({ scope, body }) => createOperationalEndpoint(scope.environmentId, body),
);
