import { route } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { acceptedResponse } from "@/lib/tasks/serialize-task";
import { ReplayIn, startReplay } from "@/lib/tasks/replay/start-replay";

// POST /api/v1/app/{app_id}/replay — async: ingest the messages of a filter again, as new messages (202 + task)
export const POST = route(
  {
    doc: {
      id: "herald.replay",
      tag: "Task",
      summary:
        "Async: ingest the messages of a filter again, as new messages (needs the estimate's confirmation when large)",
      responses: { 202: "TaskAccepted" },
    },
    auth: "any",
    write: "replay",
    params: appParams,
    body: ReplayIn,
  },
  async ({ scope, params, body }) => {
    const { task, shown } = await startReplay(scope, params.app_id, body);
    return acceptedResponse(task, scope, shown);
  },
);
