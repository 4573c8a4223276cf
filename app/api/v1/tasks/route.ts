import { route } from "@/lib/http/route";
import { listTasks, TaskListQuery } from "@/lib/tasks/query-tasks";

// GET /api/v1/tasks — the environment's tasks (a portal session: its application's), newest first
export const GET = route({ auth: "any", query: TaskListQuery }, ({ scope, query }) => listTasks(scope, query));
