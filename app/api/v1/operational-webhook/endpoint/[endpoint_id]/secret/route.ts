import { z } from "zod";
import { route } from "@/lib/http/route";
import { zIdOrUid } from "@/lib/http/fields";
import { getOperationalEndpointSecret } from "@/lib/operational/manage-operational-endpoints";

const params = z.object({ endpoint_id: zIdOrUid });

// GET /api/v1/operational-webhook/endpoint/{endpoint_id}/secret — its signing secret
export const GET = route(
  {
    doc: {
      id: "herald.operational-webhook.get-secret",
      tag: "Operational Webhook",
      summary: "Its signing secret",
      responses: { 200: "EndpointSecretOut" },
    },
    auth: "operator",
    params,
  },
  ({ scope, params }) => getOperationalEndpointSecret(scope.environmentId, params.endpoint_id),
);
