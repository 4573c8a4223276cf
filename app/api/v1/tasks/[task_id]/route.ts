import { route } from "@/lib/http/route";
import { taskParams } from "@/lib/tasks/task-params";
import { getTask } from "@/lib/tasks/query-tasks";

// GET /api/v1/tasks/{task_id} — state, progress, counts, ETA, result link or error of a task
export const GET = route(
  {
    doc: {
      id: "herald.task.get",
      tag: "Task",
      summary: "State, progress, counts, ETA, result link or error of a task",
      responses: { 200: "TaskOut" },
    },
    auth: "any",
    params: taskParams,
  },
  ({ scope, params }) => getTask(scope, params.task_id),
);
