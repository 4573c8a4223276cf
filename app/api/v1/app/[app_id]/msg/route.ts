import { route } from "@/lib/http/route";
import { appParams, listMessagesQuery, withContentQuery } from "@/lib/http/params";
import { MessageIn } from "@/lib/messages/schemas";
import { publishMessage, publishResponse } from "@/lib/messages/publish-message";
import { listMessages } from "@/lib/messages/query-messages";

// GET /api/v1/app/{app_id}/msg — list messages, newest first
export const GET = route({ auth: "any", params: appParams, query: listMessagesQuery }, ({ scope, params, query }) =>
  listMessages(scope, params.app_id, query),
);

// POST /api/v1/app/{app_id}/msg — publish a message and fan it out to the matching endpoints
export const POST = route(
  { auth: "operator", write: true, status: 202, params: appParams, body: MessageIn, query: withContentQuery },
  async ({ scope, params, body, query }) =>
    publishResponse(await publishMessage(scope, params.app_id, body), query.with_content),
);
