import { route, reply } from "@/lib/http/route";
import { taskParams } from "@/lib/tasks/task-params";
import { cancelTask } from "@/lib/tasks/cancel-task";

// POST /api/v1/tasks/{task_id}/cancel — stop a pending or running task; work already done is kept
export const POST = route(
  {
    doc: {
      id: "herald.task.cancel",
      tag: "Task",
      summary: "Stop a pending or running task; work already done is kept (202 while it winds down)",
      responses: { 200: "TaskOut", 202: "TaskOut" },
    },
    auth: "any",
    write: "tasks",
    params: taskParams,
  },
  async ({ scope, params }) => {
    const { status, body } = await cancelTask(scope, params.task_id);
    return reply(status, body);
  },
);
