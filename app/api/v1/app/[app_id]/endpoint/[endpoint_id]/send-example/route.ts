import { route } from "@/lib/http/route";
import { endpointParams } from "@/lib/http/params";
import { EventExampleIn } from "@/lib/messages/schemas";
import { sendExample } from "@/lib/messages/send-example";
import { publishResponse } from "@/lib/messages/publish-message";

// POST /api/v1/app/{app_id}/endpoint/{endpoint_id}/send-example — send a sample event to this endpoint only
export const POST = route(
  {
    doc: {
      id: "v1.endpoint.send-example",
      tag: "Endpoint",
      summary: "Send a sample of an event type (from its schema) to this endpoint only",
      description:
        "Herald extension: `payload` sends that payload instead of an example; it must match the event type's newest schema (a 422 names each wrong field).",
      svix: true,
      responses: { 200: "PublishedMessageOut" },
    },
    auth: "any",
    write: "sendExample",
    params: endpointParams,
    body: EventExampleIn,
  },
  async ({ scope, params, body }) => {
    return publishResponse(
      await sendExample(scope, params.app_id, params.endpoint_id, body),
      true,
    );
  },
);
