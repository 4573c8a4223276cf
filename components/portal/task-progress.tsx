import type { ReactNode } from "react";
import type { TaskOut } from "@/lib/tasks/serialize-task";
import { Badge, type Tone } from "../ui/badge";
import { Button } from "../ui/button";
import { RelativeTime } from "../ui/relative-time";
import { ErrorText } from "../ui/notice";

const TONE: Record<string, Tone> = {
  pending: "slate",
  running: "blue",
  completed: "green",
  failed: "red",
  cancelled: "amber",
};

/** A task's live progress, with cancel while it runs. */
export function TaskProgress({
  task,
  title,
  onCancel,
  cancelling,
  error,
  measure,
}: {
  task: TaskOut | null;
  title: string;
  onCancel: (() => void) | null;
  cancelling: boolean;
  error?: string | null | undefined;
  /** What the bar shows (0-100) and the line above the task's summary, when the task's own count is not what matters (a replay: delivered, not queued). */
  measure?: { value: number; text: ReactNode } | null;
}) {
  const running = task && (task.status === "pending" || task.status === "running");
  const value = measure ? measure.value : (task?.progress ?? 0);
  return (
    <section aria-label={title} className="space-y-2 rounded-md border border-slate-200 bg-slate-50 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-medium">{title}</p>
        {task && <Badge tone={TONE[task.status] ?? "slate"}>{task.status}</Badge>}
      </div>
      <div
        role="progressbar"
        aria-label={`${title} progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full bg-(--accent) transition-all" style={{ width: `${value}%` }} />
      </div>
      {measure && (
        <p className="text-sm font-medium text-slate-900" aria-live="polite" data-testid="task-measure">
          {measure.text}
        </p>
      )}
      <p className="text-sm text-slate-700" aria-live="polite">
        {task ? task.summary : "Starting…"}
        {task?.estimated_completion && running ? (
          <>
            {" "}· done <RelativeTime iso={task.estimated_completion} />
          </>
        ) : (
          ""
        )}
      </p>
      {task?.error && (
        <p role="alert" className="text-sm text-red-700">
          {task.error.message}
        </p>
      )}
      {!task && <ErrorText message={error} className="text-sm" />}
      {running && onCancel && (
        <Button
          size="sm"
          variant="danger"
          onClick={onCancel}
          disabled={cancelling || Boolean(task?.cancel_requested_at)}
        >
          {task?.cancel_requested_at ? "Cancelling…" : "Cancel task"}
        </Button>
      )}
    </section>
  );
}
