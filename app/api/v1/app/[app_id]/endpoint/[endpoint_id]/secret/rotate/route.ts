import { noContent, route } from "@/lib/http/route";
import { endpointParams } from "@/lib/http/params";
import { EndpointSecretRotateIn } from "@/lib/endpoints/schemas";
import { rotateEndpointSecret } from "@/lib/endpoints/manage-endpoint-keys";

// POST /api/v1/app/{app_id}/endpoint/{endpoint_id}/secret/rotate — new secret; the old one keeps signing for 24 h
export const POST = route(
  {
    doc: {
      id: "v1.endpoint.rotate-secret",
      tag: "Endpoint",
      summary:
        "Rotate the secret; the previous one keeps signing (a second signature) for gracePeriodSeconds, default 24 h",
      svix: true,
      responses: { 204: null },
    },
    auth: "any",
    write: "rotateSecret",
    params: endpointParams,
    body: EndpointSecretRotateIn,
  },
  async ({ scope, params, body }) => {
    await rotateEndpointSecret(scope, params.app_id, params.endpoint_id, body);
    return noContent;
  },
);
