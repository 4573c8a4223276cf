import { route } from "@/lib/http/route";
import { appParams, listMessagesQuery, withContentQuery } from "@/lib/http/params";
import { MessageIn } from "@/lib/messages/schemas";
import { publishMessage, publishResponse } from "@/lib/messages/publish-message";
import { listMessages } from "@/lib/messages/query-messages";

// GET /api/v1/app/{app_id}/msg — list messages, newest first
export const GET = route(
  {
    doc: {
      id: "v1.message.list",
      tag: "Message",
      summary: "List messages, newest first",
      svix: true,
      responses: { 200: "ListResponse_MessageOut_" },
    },
    auth: "any",
    params: appParams,
    query: listMessagesQuery,
  },
  ({ scope, params, query }) => listMessages(scope, params.app_id, query),
);

// POST /api/v1/app/{app_id}/msg — publish a message and fan it out to the matching endpoints
export const POST = route(
  {
    doc: {
      id: "v1.message.create",
      tag: "Message",
      summary: "Publish a message: stored with one delivery per matching endpoint in one transaction, then queued",
      description:
        "A duplicate eventId within 24 h is a 409. With an idempotency-key, a retry within 24 h returns the original response. Bodies over 256 KiB are refused (413); payloads over 20 KiB are accepted with a warning.",
      svix: true,
      responses: { 202: "PublishedMessageOut" },
    },
    auth: "operator",
    write: true,
    recordsAnswer: true,
    status: 202,
    params: appParams,
    body: MessageIn,
    query: withContentQuery,
  },
  async ({ scope, params, body, query, answer }) => {
    const withContent = query.with_content;
    const record = answer ? (p: Parameters<typeof publishResponse>[0]) => answer(publishResponse(p, withContent)) : undefined;
    return publishResponse(await publishMessage(scope, params.app_id, body, { record }), withContent);
  },
);
