import { route } from "@/lib/http/route";
import { listQuery } from "@/lib/http/pagination";
import { msgParams } from "@/lib/http/params";
import { listAttemptedDestinations } from "@/lib/delivery-queries/query-deliveries";

// GET /api/v1/app/{app_id}/msg/{msg_id}/endpoint — endpoints a message was sent to, with delivery status
export const GET = route(
  {
    doc: {
      id: "v1.message-attempt.list-attempted-destinations",
      tag: "Message Attempt",
      summary: "Endpoints a message was sent to, with the delivery status",
      svix: true,
      responses: { 200: "ListResponse_MessageEndpointOut_" },
    },
    auth: "any",
    params: msgParams,
    query: listQuery,
  },
  ({ scope, params, query }) => listAttemptedDestinations(scope, params.app_id, params.msg_id, query),
);
