import { route } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { acceptedResponse } from "@/lib/tasks/serialize-task";
import { BulkRetryIn, startBulkRetry } from "@/lib/tasks/start-bulk-retry";

// POST /api/v1/app/{app_id}/bulk-retry — async: re-attempt the dead-lettered deliveries of a filter (202 + task)
export const POST = route(
  {
    doc: {
      id: "herald.bulk-retry",
      tag: "Task",
      summary: "Async: re-attempt the dead-lettered deliveries of a filter",
      responses: { 202: "TaskAccepted" },
    },
    auth: "any",
    write: "retry",
    params: appParams,
    body: BulkRetryIn,
  },
  async ({ scope, params, body }) => {
    const { task, shown } = await startBulkRetry(scope, params.app_id, body);
    return acceptedResponse(task, scope, shown);
  },
);
