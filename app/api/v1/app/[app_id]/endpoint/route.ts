import { route } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { listQuery } from "@/lib/http/pagination";
import { EndpointIn } from "@/lib/endpoints/schemas";
import { createEndpoint, listEndpoints } from "@/lib/endpoints/manage-endpoints";

// GET /api/v1/app/{app_id}/endpoint — list an application's endpoints
export const GET = route(
  {
    doc: {
      id: "v1.endpoint.list",
      tag: "Endpoint",
      summary: "List an application's endpoints",
      svix: true,
      responses: { 200: "ListResponse_EndpointOut_" },
    },
    auth: "any",
    params: appParams,
    query: listQuery,
  },
  ({ scope, params, query }) => listEndpoints(scope, params.app_id, query),
);

// POST /api/v1/app/{app_id}/endpoint — register an endpoint (URL checked against the SSRF rules)
export const POST = route(
  {
    doc: {
      id: "v1.endpoint.create",
      tag: "Endpoint",
      summary: "Register an endpoint (the URL must be public: SSRF rules)",
      svix: true,
      responses: { 201: "EndpointOut" },
    },
    auth: "any",
    write: true,
    status: 201,
    params: appParams,
    body: EndpointIn,
  },
  ({ scope, params, body }) => createEndpoint(scope, params.app_id, body),
);
