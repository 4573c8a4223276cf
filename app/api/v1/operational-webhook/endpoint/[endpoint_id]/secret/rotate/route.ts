import { z } from "zod";
import { noContent, route } from "@/lib/http/route";
import { zIdOrUid } from "@/lib/http/fields";
import { OperationalSecretIn } from "@/lib/operational/schemas";
import { rotateOperationalEndpointSecret } from "@/lib/operational/manage-operational-endpoints";

const params = z.object({ endpoint_id: zIdOrUid });

// POST /api/v1/operational-webhook/endpoint/{endpoint_id}/secret/rotate — new secret; the old one keeps signing for 24 h
export const POST = route(
  {
    doc: {
      id: "herald.operational-webhook.rotate-secret",
      tag: "Operational Webhook",
      summary: "New secret; the old one keeps signing for 24 h",
      responses: { 204: null },
    },
    auth: "operator",
    write: true,
    params,
    body: OperationalSecretIn,
  },
  async ({ scope, params, body }) => {
    await rotateOperationalEndpointSecret(scope.environmentId, params.endpoint_id, body.key);
    return noContent;
  },
);
