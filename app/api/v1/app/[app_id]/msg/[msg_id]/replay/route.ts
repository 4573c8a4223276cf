import { route } from "@/lib/http/route";
import { msgParams } from "@/lib/http/params";
import { ReplayMessageIn, replayMessage } from "@/lib/tasks/replay/replay-message";

// POST /api/v1/app/{app_id}/msg/{msg_id}/replay — ingest one message again as a new message
// (new id, `replayOf` = the original), to every subscribed endpoint or to `endpoint_id` only
export const POST = route(
  {
    doc: {
      id: "herald.message.replay",
      tag: "Message",
      summary:
        "Ingest one message again as a new message (replayOf = the original), to all subscribed endpoints or endpoint_id only",
      responses: { 202: "PublishedMessageOut" },
    },
    auth: "any",
    write: "replay",
    status: 202,
    params: msgParams,
    body: ReplayMessageIn,
  },
  ({ scope, params, body }) => {
    return replayMessage(scope, params.app_id, params.msg_id, body);
  },
);
