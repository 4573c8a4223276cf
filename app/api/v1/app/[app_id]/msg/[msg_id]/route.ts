import { route } from "@/lib/http/route";
import { msgParams, withContentQuery } from "@/lib/http/params";
import { findMessage } from "@/lib/messages/query-messages";
import { serializeMessage } from "@/lib/messages/serialize";

// GET /api/v1/app/{app_id}/msg/{msg_id} — get a message by id or eventId
export const GET = route(
  {
    doc: {
      id: "v1.message.get",
      tag: "Message",
      summary: "Get a message by id or eventId",
      svix: true,
      responses: { 200: "MessageOut" },
    },
    auth: "any",
    params: msgParams,
    query: withContentQuery,
  },
  async ({ scope, params, query }) =>
    serializeMessage((await findMessage(scope, params.app_id, params.msg_id)).msg, query.with_content),
);
