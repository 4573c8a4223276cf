import { route } from "@/lib/http/route";
import { endpointParams } from "@/lib/http/params";
import { EventExampleIn } from "@/lib/messages/schemas";
import { sendExample } from "@/lib/messages/send-example";
import { publishResponse } from "@/lib/messages/publish-message";
import { assertCapability } from "@/lib/portal-access/capabilities";

// POST /api/v1/app/{app_id}/endpoint/{endpoint_id}/send-example — send a sample event to this endpoint only
export const POST = route(
  { auth: "any", write: true, params: endpointParams, body: EventExampleIn },
  async ({ principal, scope, params, body }) => {
    assertCapability(principal, "sendExample");
    return publishResponse(await sendExample(scope, params.app_id, params.endpoint_id, body.eventType, body.exampleIndex), true);
  },
);
