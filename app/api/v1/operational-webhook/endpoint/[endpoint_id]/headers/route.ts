import { z } from "zod";
import { noContent, route } from "@/lib/http/route";
import { zIdOrUid } from "@/lib/http/fields";
import { OperationalHeadersIn } from "@/lib/operational/schemas";
import {
  getOperationalEndpointHeaders,
  replaceOperationalEndpointHeaders,
} from "@/lib/operational/manage-operational-endpoints";

const params = z.object({ endpoint_id: zIdOrUid });

// GET /api/v1/operational-webhook/endpoint/{endpoint_id}/headers — custom headers (sensitive values withheld)
export const GET = route(
  {
    doc: {
      id: "herald.operational-webhook.get-headers",
      tag: "Operational Webhook",
      summary: "Custom headers (sensitive values withheld)",
      responses: { 200: "EndpointHeadersOut" },
    },
    auth: "operator",
    params,
  },
  ({ scope, params }) => getOperationalEndpointHeaders(scope.environmentId, params.endpoint_id),
);

// PUT /api/v1/operational-webhook/endpoint/{endpoint_id}/headers — replace all custom headers
export const PUT = route(
  {
    doc: {
      id: "herald.operational-webhook.update-headers",
      tag: "Operational Webhook",
      summary: "Replace all custom headers",
      responses: { 204: null },
    },
    auth: "operator",
    write: true,
    params,
    body: OperationalHeadersIn,
  },
  async ({ scope, params, body }) => {
    await replaceOperationalEndpointHeaders(scope.environmentId, params.endpoint_id, body.headers);
    return noContent;
  },
);
