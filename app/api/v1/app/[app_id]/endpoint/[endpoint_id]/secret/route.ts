import { route } from "@/lib/http/route";
import { endpointParams } from "@/lib/http/params";
import { getEndpointSecret } from "@/lib/endpoints/manage-endpoint-keys";
import { assertCapability } from "@/lib/portal-access/capabilities";

// GET /api/v1/app/{app_id}/endpoint/{endpoint_id}/secret — the signing secret (public key for ed25519)
export const GET = route(
  {
    doc: {
      id: "v1.endpoint.get-secret",
      tag: "Endpoint",
      summary: "The signing secret (the public key for ed25519 endpoints)",
      svix: true,
      responses: { 200: "EndpointSecretOut" },
    },
    auth: "any",
    params: endpointParams,
  },
  ({ principal, scope, params }) => {
    assertCapability(principal, "secrets");
    return getEndpointSecret(scope, params.app_id, params.endpoint_id);
  },
);
