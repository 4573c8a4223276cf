"use client";
import { useState, type ReactNode } from "react";
import type { TaskOut } from "@/lib/tasks/serialize-task";
import type { ReplayDeliveryCounts } from "@/lib/tasks/replay/replay-deliveries";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { formatTime } from "../ui/format";
import { ErrorText } from "../ui/notice";
import { TaskProgress } from "./task-progress";

export type Estimate = {
  messages: number;
  deliveries: number;
  endpoints?: number;
  until: string;
  since: string | null;
  endpoint_id: string | null;
};

/**
 * Progress as what reached the receiver, not what was queued: while the task runs its expected
 * total is the estimate; once it has queued everything, what it queued.
 */
function deliveryMeasure(c: ReplayDeliveryCounts, expected: number) {
  const settled = c.delivered + c.failed + c.cancelled;
  const of = Math.max(expected, c.total);
  const value = of === 0 ? 100 : Math.min(100, Math.floor((100 * settled) / of));
  const parts = [
    c.failed && `${c.failed} failed`,
    c.retrying && `${c.retrying} retrying`,
    c.sending && `${c.sending} being sent`,
    c.waiting && `${c.waiting} waiting`,
    c.cancelled && `${c.cancelled} cancelled`,
  ].filter(Boolean);
  return { value, text: `${c.delivered} of ${of} deliveries delivered${parts.length ? ` · ${parts.join(" · ")}` : ""}` };
}

/**
 * Range replay: the filters in words, the estimate ("this will send N messages to M endpoints"),
 * an explicit confirmation, then live progress with cancel.
 */
export function RangeReplayDialog({
  open,
  onClose,
  scope,
  estimate,
  estimating,
  estimateError,
  endpointCount,
  onConfirm,
  starting,
  startError,
  task,
  taskError,
  onCancelTask,
  cancelling,
  deliveries,
}: {
  open: boolean;
  onClose: () => void;
  scope: ReactNode;
  estimate: Estimate | null;
  estimating: boolean;
  estimateError?: string | undefined;
  /** How many endpoints the replay reaches when the estimate does not say. */
  endpointCount: number | null;
  onConfirm: () => void;
  starting: boolean;
  startError?: string | undefined;
  task: { id: string; state: TaskOut | null } | null;
  taskError?: string | null | undefined;
  onCancelTask: () => void;
  cancelling: boolean;
  /** Where the replay's deliveries stand (GET /tasks/{id}/deliveries). */
  deliveries: ReplayDeliveryCounts | null;
}) {
  const [understood, setUnderstood] = useState(false);
  const m = estimate?.endpoints ?? (estimate?.endpoint_id ? 1 : endpointCount);
  const running = task && (!task.state || task.state.status === "pending" || task.state.status === "running");
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Replay messages"
      footer={
        task ? (
          <Button onClick={onClose}>{running ? "Close (keeps running)" : "Close"}</Button>
        ) : (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button
              variant="primary"
              disabled={!estimate || estimate.messages === 0 || !understood || starting}
              onClick={onConfirm}
            >
              {starting ? "Starting…" : `Replay ${estimate?.messages ?? ""} messages`}
            </Button>
          </>
        )
      }
    >
      <div className="space-y-4 text-sm text-slate-700">
        <p>
          A replay ingests each original message again as a <strong>new message</strong> (new id and{" "}
          <code>webhook-id</code>, linked to the original) and delivers it to the endpoints subscribed to it now, including
          ones created after it was sent. A message that was sent to chosen endpoints only (a sample) goes only to those.
          Receivers see them as new events.
        </p>
        <div className="rounded-md bg-slate-50 p-3 text-xs">{scope}</div>
        {estimating && <p role="status">Counting what this would send…</p>}
        <ErrorText message={estimateError} />
        {estimate && (
          <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">
            <p className="text-base font-semibold">
              This will send {estimate.messages} message{estimate.messages === 1 ? "" : "s"}
              {m !== null ? ` to ${m} endpoint${m === 1 ? "" : "s"}` : ""}
            </p>
            <p className="mt-1 text-xs">
              {estimate.deliveries} deliveries in all · messages from{" "}
              {estimate.since ? formatTime(estimate.since) : "the beginning"} until {formatTime(estimate.until)}
            </p>
          </div>
        )}
        {estimate && estimate.messages > 0 && !task && (
          <label className="flex items-start gap-2">
            <input
              type="checkbox"
              className="mt-0.5"
              checked={understood}
              onChange={(e) => setUnderstood(e.target.checked)}
            />
            <span>I understand these messages will be delivered again as new events.</span>
          </label>
        )}
        <ErrorText message={startError} />
        {task && (
          <TaskProgress
            title="Replay"
            task={task.state}
            error={taskError}
            onCancel={onCancelTask}
            cancelling={cancelling}
            measure={deliveries ? deliveryMeasure(deliveries, running ? (estimate?.deliveries ?? deliveries.total) : deliveries.total) : null}
          />
        )}
      </div>
    </Dialog>
  );
}
