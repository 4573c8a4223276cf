import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import type { Scope } from "../auth/principal";
import { ApiError, conflict } from "../http/errors";
import { findTask } from "../tasks/query-tasks";
import type { TaskResult } from "../tasks/serialize-task";
import { exportPath, type ExportFormat } from "./export-files";

// GET /api/v1/tasks/{id}/result: the export file of a finished (or cancelled, partial) export task.

const CONTENT_TYPES: Record<ExportFormat, string> = {
  ndjson: "application/x-ndjson; charset=utf-8",
  csv: "text/csv; charset=utf-8",
};

export async function downloadExport(scope: Scope, taskId: string): Promise<Response> {
  const task = await findTask(scope, taskId);
  const result = (task.result ?? {}) as TaskResult;
  if (task.kind !== "export")
    throw conflict(`Task ${task.id} is a ${task.kind} task; only export tasks have a file`, "no_result_file");
  if (task.status !== "completed" && task.status !== "cancelled")
    throw conflict(
      `Task ${task.id} is ${task.status}; its file is available once it has completed`,
      "result_not_ready",
    );
  const format = result.format ?? "ndjson";
  const file = exportPath(task.id, format);
  let onDisk: number;
  try {
    onDisk = (await stat(file)).size;
  } catch {
    throw new ApiError(
      410,
      "result_expired",
      "This export file was deleted (files are kept for a limited time); export again",
    );
  }
  // Only what the task committed (a batch cut short by a crash may have left more on disk).
  const size = Math.min(onDisk, result.bytes ?? onDisk);
  const stream = size > 0 ? createReadStream(file, { start: 0, end: size - 1 }) : Readable.from([]);
  const body = Readable.toWeb(stream) as ReadableStream<Uint8Array>;
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": CONTENT_TYPES[format],
      "content-length": String(size),
      "content-disposition": `attachment; filename="${task.id}.${format}"`,
      "cache-control": "private, no-store",
      "referrer-policy": "no-referrer",
    },
  });
}
