import path from "node:path";
import { db } from "../db";
import { env } from "../env";
import { idAtTime } from "../ids";
import type { Attempt, Prisma, Task } from "../generated/prisma/client";
import { serializeAttempt } from "../attempts/serialize";
import { TaskError, type TaskKindRunner } from "../tasks/task-context";
import { csvLine } from "./csv";
import { exportPath, openForAppend } from "./export-files";
import type { ExportFilter } from "./start-export";

// export: appends the next batch of attempts (id order) to the task's file, fsyncs, then commits
// cursor = "<last attempt id>|<file size>". A resumed run first cuts the file back to the committed
// size, so rows written by a batch that did not commit are not written twice.

export const CSV_COLUMNS = [
  "id",
  "timestamp",
  "msg_id",
  "endpoint_id",
  "event_type",
  "url",
  "status",
  "response_status_code",
  "duration_ms",
  "trigger_type",
  "error_class",
  "error_message",
] as const;
const CSV_CONTENT_COLUMNS = ["request_body", "response_body"] as const;

function whereOf(f: ExportFilter, after: string | null): Prisma.AttemptWhereInput {
  return {
    applicationId: f.appId,
    ...(f.endpointId ? { endpointId: f.endpointId } : {}),
    id: {
      lt: idAtTime("attempt", new Date(f.until)),
      ...(f.since ? { gte: idAtTime("attempt", new Date(f.since)) } : {}),
      ...(after ? { gt: after } : {}),
    },
    ...(f.status ? { status: f.status } : {}),
    ...(f.statusCode !== null ? { responseStatus: f.statusCode } : {}),
    ...(f.statusCodeClass !== null
      ? { responseStatus: f.statusCodeClass === 0 ? 0 : { gte: f.statusCodeClass, lt: f.statusCodeClass + 100 } }
      : {}),
    ...(f.eventTypes.length ? { eventType: { in: f.eventTypes } } : {}),
  };
}

function csvRow(a: Attempt, withContent: boolean): string {
  const base = [
    a.id,
    a.createdAt.toISOString(),
    a.messageId,
    a.endpointId,
    a.eventType,
    a.url,
    a.status,
    a.responseStatus,
    a.durationMs,
    a.triggerType,
    a.errorClass,
    a.errorMessage,
  ];
  return csvLine(withContent ? [...base, a.requestBody, a.responseBody] : base);
}

function parseCursor(cursor: string | null): { after: string | null; bytes: number } {
  if (!cursor) return { after: null, bytes: 0 };
  const [after, bytes] = cursor.split("|");
  return { after: after || null, bytes: Number(bytes) || 0 };
}

export const writeExport: TaskKindRunner = {
  async total(task: Task) {
    const f = task.params as ExportFilter;
    const n = await db.attempt.count({ where: whereOf(f, null) });
    const max = env().HERALD_EXPORT_MAX_ROWS;
    if (n > max)
      throw new TaskError(
        "data_too_large",
        `Export exceeds ${max} rows (${n} match); narrow the time range, endpoint or status`,
      );
    return n;
  },

  async step(ctx) {
    const f = ctx.task.params as ExportFilter;
    const { after, bytes } = parseCursor(ctx.progress().cursor);
    const rows = await db.attempt.findMany({
      where: whereOf(f, after),
      orderBy: { id: "asc" },
      take: ctx.opts.batchSize,
    });
    const file = exportPath(ctx.task.id, f.format);
    const header =
      after === null && f.format === "csv"
        ? csvLine(f.withContent ? [...CSV_COLUMNS, ...CSV_CONTENT_COLUMNS] : [...CSV_COLUMNS])
        : "";
    const text =
      header +
      rows
        .map((a) =>
          f.format === "csv" ? csvRow(a, f.withContent) : JSON.stringify(serializeAttempt(a, f.withContent)) + "\n",
        )
        .join("");

    const fh = await openForAppend(file, bytes);
    try {
      if (text) await fh.write(text);
      await fh.sync();
    } finally {
      await fh.close();
    }
    const size = bytes + Buffer.byteLength(text);
    const last = rows[rows.length - 1];
    await ctx.commit(
      () => Promise.resolve(),
      (_v, before) => ({
        cursor: `${last?.id ?? after ?? ""}|${size}`,
        added: rows.length,
        result: {
          format: f.format,
          rows: (before.result.rows ?? 0) + rows.length,
          bytes: size,
          file: path.basename(file),
        },
      }),
    );
    return last ? "more" : "done";
  },
};
