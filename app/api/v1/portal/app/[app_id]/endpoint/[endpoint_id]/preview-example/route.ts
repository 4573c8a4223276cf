import { route } from "@/lib/http/route";
import { endpointParams } from "@/lib/http/params";
import { PreviewExampleIn } from "@/lib/portal/schemas";
import { previewExample } from "@/lib/portal/preview-example";

// POST /api/v1/portal/app/{app_id}/endpoint/{endpoint_id}/preview-example — the exact body and headers a sample event would be sent with
// (write: the preview carries a valid signature, so only sessions that may send samples get one)
export const POST = route(
  {
    doc: {
      id: "herald.portal.preview-example",
      tag: "Portal",
      summary: "The exact body and headers a sample event would be sent with",
      responses: { 200: "AnyObject" },
    },
    auth: "any",
    write: "sendExample",
    params: endpointParams,
    body: PreviewExampleIn,
  },
  ({ scope, params, body }) => {
    return previewExample(scope, params.app_id, params.endpoint_id, body.eventType, body.payload);
  },
);
