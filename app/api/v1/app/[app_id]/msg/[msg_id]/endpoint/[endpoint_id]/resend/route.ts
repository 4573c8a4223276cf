import { route } from "@/lib/http/route";
import { msgEndpointParams } from "@/lib/http/params";
import { resendMessage } from "@/lib/delivery/resend";

// POST /api/v1/app/{app_id}/msg/{msg_id}/endpoint/{endpoint_id}/resend — manual retry (same webhook-id)
export const POST = route(
  {
    doc: {
      id: "v1.message-attempt.resend",
      tag: "Message Attempt",
      summary: "Retry: a new attempt of the same delivery (same webhook-id)",
      svix: true,
      responses: { 202: "EmptyResponse" },
    },
    auth: "any",
    write: "retry",
    status: 202,
    params: msgEndpointParams,
  },
  async ({ scope, params }) => {
    await resendMessage(scope, params.app_id, params.msg_id, params.endpoint_id);
    return {};
  },
);
