import { noContent, route } from "@/lib/http/route";
import { endpointParams } from "@/lib/http/params";
import { EndpointHeadersIn, EndpointHeadersPatchIn } from "@/lib/endpoints/schemas";
import { getEndpointHeaders, patchEndpointHeaders, replaceEndpointHeaders } from "@/lib/endpoints/manage-endpoint-keys";

// GET /api/v1/app/{app_id}/endpoint/{endpoint_id}/headers — custom headers (sensitive values withheld)
export const GET = route(
  {
    doc: {
      id: "v1.endpoint.get-headers",
      tag: "Endpoint",
      summary: "Custom headers (values of sensitive ones withheld)",
      svix: true,
      responses: { 200: "EndpointHeadersOut" },
    },
    auth: "any",
    params: endpointParams,
  },
  ({ scope, params }) => getEndpointHeaders(scope, params.app_id, params.endpoint_id),
);

// PUT /api/v1/app/{app_id}/endpoint/{endpoint_id}/headers — replace all custom headers
export const PUT = route(
  {
    doc: {
      id: "v1.endpoint.update-headers",
      tag: "Endpoint",
      summary: "Replace all custom headers",
      svix: true,
      responses: { 204: null },
    },
    auth: "any",
    write: true,
    params: endpointParams,
    body: EndpointHeadersIn,
  },
  async ({ scope, params, body }) => {
    await replaceEndpointHeaders(scope, params.app_id, params.endpoint_id, body.headers);
    return noContent;
  },
);

// PATCH /api/v1/app/{app_id}/endpoint/{endpoint_id}/headers — set some headers; null removes one
export const PATCH = route(
  {
    doc: {
      id: "v1.endpoint.patch-headers",
      tag: "Endpoint",
      summary: "Set some custom headers; null removes one",
      svix: true,
      responses: { 204: null },
    },
    auth: "any",
    write: true,
    params: endpointParams,
    body: EndpointHeadersPatchIn,
  },
  async ({ scope, params, body }) => {
    await patchEndpointHeaders(scope, params.app_id, params.endpoint_id, body.headers);
    return noContent;
  },
);
