import { noContent, route } from "@/lib/http/route";
import { endpointParams } from "@/lib/http/params";
import { answerDelivery } from "@/lib/listen/answer-delivery";
import { ListenAnswerIn } from "@/lib/listen/relay";

// POST /api/v1/app/{app_id}/listen/{endpoint_id}/answer — herald listen reports the local server's answer to one delivery
export const POST = route(
  {
    auth: "any",
    write: true,
    params: endpointParams,
    body: ListenAnswerIn,
    doc: {
      id: "herald.listen.answer",
      tag: "Integrator tools",
      summary: "Report what the local server answered to a delivery of the stream (status, headers, body, duration); it is recorded as the attempt's response",
      responses: { 204: null },
    },
  },
  async ({ scope, params, body }) => {
    await answerDelivery(scope, params.app_id, params.endpoint_id, body);
    return noContent;
  },
);
