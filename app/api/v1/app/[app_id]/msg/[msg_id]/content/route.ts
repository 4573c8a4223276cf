import { noContent, route } from "@/lib/http/route";
import { msgParams } from "@/lib/http/params";
import { expungeMessageContent } from "@/lib/messages/query-messages";

// DELETE /api/v1/app/{app_id}/msg/{msg_id}/content — delete a message's payload (history stays)
export const DELETE = route(
  {
    doc: {
      id: "v1.message.expunge-content",
      tag: "Message",
      summary: "Delete a message's payload (the message and its history stay)",
      svix: true,
      responses: { 204: null },
    },
    auth: "operator",
    write: true,
    params: msgParams,
  },
  async ({ scope, params }) => {
    await expungeMessageContent(scope, params.app_id, params.msg_id);
    return noContent;
  },
);
