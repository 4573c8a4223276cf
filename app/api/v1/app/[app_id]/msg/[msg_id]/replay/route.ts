import { route } from "@/lib/http/route";
import { msgParams } from "@/lib/http/params";
import { assertCapability } from "@/lib/portal-access/capabilities";
import { ReplayMessageIn, replayMessage } from "@/lib/tasks/replay/replay-message";

// POST /api/v1/app/{app_id}/msg/{msg_id}/replay — ingest one message again as a new message
// (new id, `replayOf` = the original), to every subscribed endpoint or to `endpoint_id` only
export const POST = route(
  { auth: "any", write: true, status: 202, params: msgParams, body: ReplayMessageIn },
  ({ principal, scope, params, body }) => {
    assertCapability(principal, "replay");
    return replayMessage(scope, params.app_id, params.msg_id, body);
  },
);
