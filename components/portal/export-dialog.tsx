"use client";
import { useState, type ReactNode } from "react";
import type { TaskOut } from "@/lib/tasks/serialize-task";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { ErrorText } from "../ui/notice";
import { TaskProgress } from "./task-progress";

export type ExportFormat = "csv" | "ndjson";

/**
 * "Export these logs": the filters that apply in words, a format, then the export task's live
 * progress (its event stream) with cancel, and the file's download link once it is written.
 */
export function ExportDialog({
  open,
  onClose,
  scope,
  onStart,
  starting,
  startError,
  task,
  taskError,
  onCancelTask,
  canCancel,
  cancelling,
}: {
  open: boolean;
  onClose: () => void;
  scope: ReactNode;
  onStart: (format: ExportFormat) => void;
  starting: boolean;
  startError?: string | undefined;
  task: { id: string; state: TaskOut | null } | null;
  taskError: string | null;
  onCancelTask: () => void;
  /** Cancelling a task needs the link's retry or replay capability. */
  canCancel: boolean;
  cancelling: boolean;
}) {
  const [format, setFormat] = useState<ExportFormat>("csv");
  const t = task?.state ?? null;
  const running = !t || t.status === "pending" || t.status === "running";
  const rows = typeof t?.result?.rows === "number" ? t.result.rows : null;
  return (
    <Dialog open={open} onClose={onClose} title="Export these logs">
      {!task ? (
        <form
          className="space-y-3 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            onStart(format);
          }}
        >
          <p>Every attempt of the deliveries these filters select, oldest first, written to a file you can download.</p>
          <div className="rounded-md bg-slate-50 p-3 text-slate-700">{scope}</div>
          <fieldset className="space-y-1">
            <legend className="font-medium text-slate-800">Format</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name="export-format" checked={format === "csv"} onChange={() => setFormat("csv")} />{" "}
              CSV (spreadsheets)
            </label>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="export-format"
                checked={format === "ndjson"}
                onChange={() => setFormat("ndjson")}
              />{" "}
              NDJSON (one JSON attempt per line)
            </label>
          </fieldset>
          <ErrorText message={startError} />
          <div className="flex justify-end gap-2">
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" disabled={starting}>
              {starting ? "Starting…" : "Start export"}
            </Button>
          </div>
        </form>
      ) : (
        <div className="space-y-3 text-sm">
          <TaskProgress
            task={t}
            title="Export"
            onCancel={running && canCancel ? onCancelTask : null}
            cancelling={cancelling}
            error={taskError}
            measure={
              rows !== null
                ? { value: t?.progress ?? 0, text: `${rows} attempt${rows === 1 ? "" : "s"} written` }
                : null
            }
          />
          {t?.status === "completed" && t.result_url && (
            <p>
              <a className="font-medium text-blue-800 underline" href={t.result_url} download>
                Download the export ({format === "csv" ? "CSV" : "NDJSON"})
              </a>
              <span className="block text-xs text-slate-600">
                The link works for a limited time; the file is kept for 24 hours.
              </span>
            </p>
          )}
          <div className="flex justify-end">
            <Button onClick={onClose}>Close</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
