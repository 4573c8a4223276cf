import { route } from "@/lib/http/route";
import { attemptedMessagesQuery, endpointParams } from "@/lib/http/params";
import { listAttemptedMessages } from "@/lib/delivery-queries/query-deliveries";

// GET /api/v1/app/{app_id}/endpoint/{endpoint_id}/msg — messages sent to an endpoint, with delivery status
export const GET = route(
  {
    doc: {
      id: "v1.message-attempt.list-attempted-messages",
      tag: "Message Attempt",
      summary: "Messages sent to an endpoint, with their delivery status",
      svix: true,
      responses: { 200: "ListResponse_EndpointMessageOut_" },
    },
    auth: "any",
    params: endpointParams,
    query: attemptedMessagesQuery,
  },
  ({ scope, params, query }) => listAttemptedMessages(scope, params.app_id, params.endpoint_id, query),
);
