"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { TaskOut } from "@/lib/tasks/serialize-task";
import type { ApiClient } from "@/lib/http/api-client";

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
const POLL_FALLBACK_MS = 2_000;
const MAX_RECONNECTS = 5;
const RECOUNT_AFTER_CANCEL_MS = [4_000, 8_000];

/**
 * Live state of a task from its event stream (GET /api/v1/tasks/{id}/events, through the
 * portal's or the console's client, which add their credentials). If the stream breaks before
 * the task ends it reconnects a few times, then falls back to polling. When the task ends, every
 * query is refreshed: a retry or a replay changes the failure groups, the log and the endpoints'
 * numbers at once.
 */
export function useTaskStream({ api, streamEvents }: ApiClient, taskId: string | null) {
  const [task, setTask] = useState<TaskOut | null>(null);
  const [error, setError] = useState<string | null>(null);
  const qc = useQueryClient();

  useEffect(() => {
    if (!taskId) return;
    setTask(null);
    setError(null);
    const ctrl = new AbortController();
    let done = false;
    const take = (t: TaskOut) => {
      setTask(t);
      if (TERMINAL.has(t.status) && !done) {
        done = true;
        void qc.invalidateQueries();
        // A cancelled replay's worker stops the deliveries it held back a few seconds after the
        // cancel (lib/tasks/replay/replay-deliveries.ts); read the task again so its summary
        // counts them.
        if (t.kind === "replay" && t.status === "cancelled")
          for (const ms of RECOUNT_AFTER_CANCEL_MS)
            setTimeout(() => {
              if (!ctrl.signal.aborted) void api<TaskOut>(`/tasks/${encodeURIComponent(taskId)}`, { signal: ctrl.signal }).then(setTask, () => {});
            }, ms);
      }
    };
    void (async () => {
      for (let attempt = 0; attempt < MAX_RECONNECTS && !done && !ctrl.signal.aborted; attempt++) {
        try {
          await streamEvents(
            `/tasks/${encodeURIComponent(taskId)}/events`,
            (e) => {
              if (e.event === "status" || e.event === "progress") take(JSON.parse(e.data) as TaskOut);
            },
            ctrl.signal,
          );
        } catch (e) {
          if (ctrl.signal.aborted) return;
          setError(e instanceof Error ? e.message : String(e));
        }
      }
      while (!done && !ctrl.signal.aborted) {
        try {
          take(await api<TaskOut>(`/tasks/${encodeURIComponent(taskId)}`, { signal: ctrl.signal }));
        } catch (e) {
          if (ctrl.signal.aborted) return;
          setError(e instanceof Error ? e.message : String(e));
        }
        await new Promise((r) => setTimeout(r, POLL_FALLBACK_MS));
      }
    })();
    return () => ctrl.abort();
  }, [api, streamEvents, taskId, qc]);

  return { task, error };
}
