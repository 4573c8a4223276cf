import { route } from "@/lib/http/route";
import { taskParams } from "@/lib/tasks/task-params";
import { scopeForTaskLink } from "@/lib/tasks/link-auth";
import { downloadExport } from "@/lib/exports/download-export";

// GET /api/v1/tasks/{task_id}/result — download an export's file.
// Auth: Authorization header, or the signed, expiring `result_url` of the task.
export const GET = route(
  {
    doc: {
      id: "herald.task.result",
      tag: "Task",
      summary: "Download an export's file (header auth or the signed, expiring result_url)",
      linkAuth: true,
      responses: {
        200: {
          description: "The file",
          content: {
            "application/x-ndjson": { schema: { type: "string" } },
            "text/csv": { schema: { type: "string" } },
          },
        },
      },
    },
    auth: "public",
    params: taskParams,
  },
  async ({ req, params }) => downloadExport(await scopeForTaskLink(req, params.task_id, "task-result"), params.task_id),
);
