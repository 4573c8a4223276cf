import { route } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { acceptedResponse } from "@/lib/tasks/serialize-task";
import { ExportIn, startExport } from "@/lib/exports/start-export";

// POST /api/v1/app/{app_id}/attempt/export — async: the delivery log of a filter as NDJSON or CSV (202 + task)
export const POST = route(
  {
    doc: {
      id: "herald.attempt.export",
      tag: "Task",
      summary: "Async: the delivery log of a filter as NDJSON or CSV",
      responses: { 202: "TaskAccepted" },
    },
    auth: "any",
    write: true,
    params: appParams,
    body: ExportIn,
  },
  async ({ scope, params, body }) => {
    const { task, shown } = await startExport(scope, params.app_id, body);
    return acceptedResponse(task, scope, shown);
  },
);
