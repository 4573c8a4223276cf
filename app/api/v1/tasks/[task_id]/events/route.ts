import { route } from "@/lib/http/route";
import { taskParams } from "@/lib/tasks/task-params";
import { scopeForTaskLink } from "@/lib/tasks/link-auth";
import { taskEventStream } from "@/lib/tasks/task-events";

// GET /api/v1/tasks/{task_id}/events — Server-Sent Events: state changes and progress until the task ends.
// Auth: Authorization header, or the signed `events_url` of the task (for EventSource).
export const GET = route(
  {
    doc: {
      id: "herald.task.events",
      tag: "Task",
      summary:
        "Server-Sent Events: state changes and progress until the task ends (header auth or the signed events_url)",
      linkAuth: true,
      responses: {
        200: { description: "An event stream", content: { "text/event-stream": { schema: { type: "string" } } } },
      },
    },
    auth: "public",
    params: taskParams,
  },
  async ({ req, params }) =>
    taskEventStream(await scopeForTaskLink(req, params.task_id, "task-events"), params.task_id, req.signal),
);
