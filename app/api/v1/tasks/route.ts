import { route } from "@/lib/http/route";
import { listTasks, TaskListQuery } from "@/lib/tasks/query-tasks";

// GET /api/v1/tasks — the environment's tasks (a portal session: its application's), newest first
export const GET = route(
  {
    doc: {
      id: "herald.task.list",
      tag: "Task",
      summary: "The environment's tasks (a portal session: its application's), newest first",
      responses: { 200: "ListResponse_TaskOut_" },
    },
    auth: "any",
    query: TaskListQuery,
  },
  ({ scope, query }) => listTasks(scope, query),
);
