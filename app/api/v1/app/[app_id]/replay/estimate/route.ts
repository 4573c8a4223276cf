import { route } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { ReplayFilterIn } from "@/lib/tasks/replay/replay-filter";
import { estimateReplay } from "@/lib/tasks/replay/start-replay";

// POST /api/v1/app/{app_id}/replay/estimate — dry run: how many messages and deliveries a replay
// would create, and the `confirmation` token that starts it
export const POST = route(
  {
    doc: {
      id: "herald.replay.estimate",
      tag: "Task",
      summary:
        "Dry run: how many messages and deliveries a replay would create, and the confirmation token that starts it",
      responses: { 200: "AnyObject" },
    },
    auth: "any",
    params: appParams,
    body: ReplayFilterIn,
  },
  ({ scope, params, body }) => estimateReplay(scope, params.app_id, body),
);
