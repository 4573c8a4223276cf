import { z } from "zod";
import { route } from "@/lib/http/route";
import { revokeApiKey } from "@/lib/environments/api-keys";

// DELETE /api/v1/environment/api-key/{key_id} — revoke an API key (requests with it fail within seconds)
export const DELETE = route(
  {
    doc: {
      id: "herald.environment.api-key.revoke",
      tag: "Environment",
      summary: "Revoke an API key (owners only); requests with it are refused within 5 seconds. Revoking twice is harmless",
      responses: { 200: "ApiKeyOut" },
    },
    auth: "operator",
    write: true,
    params: z.object({ key_id: z.string().max(64) }),
  },
  ({ principal, params }) => revokeApiKey(principal, params.key_id),
);
