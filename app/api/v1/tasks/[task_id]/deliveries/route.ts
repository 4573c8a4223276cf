import { route } from "@/lib/http/route";
import { taskParams } from "@/lib/tasks/task-params";
import { replayDeliveryCounts } from "@/lib/tasks/replay/replay-deliveries";

// GET /api/v1/tasks/{task_id}/deliveries — where a replay's deliveries stand: delivered, failed, retrying, waiting, cancelled
export const GET = route(
  {
    doc: {
      id: "herald.task.deliveries",
      tag: "Task",
      summary: "Where a replay task's deliveries stand: delivered, failed, retrying, waiting, cancelled (zero for tasks that create none)",
      responses: { 200: "ReplayDeliveriesOut" },
    },
    auth: "any",
    params: taskParams,
  },
  ({ scope, params }) => replayDeliveryCounts(scope, params.task_id),
);
