import type { Task, TaskKind } from "../generated/prisma/client";
import { env } from "../env";
import { eventsUrl, resultUrl, statusUrl, type LinkScope } from "./task-links";

// The task resource as the API shows it (GET /api/v1/tasks/{id}, lists, SSE events, callbacks).

export type TaskResult = {
  // recover, bulk_retry
  retried?: number;
  skipped?: number;
  // replay
  messages?: number;
  deliveries?: number;
  /** Deliveries cancelled with the task before they were attempted. */
  cancelled?: number;
  // export
  format?: "ndjson" | "csv";
  rows?: number;
  bytes?: number;
  file?: string;
};

const UNIT: Record<TaskKind, string> = {
  recover: "failed deliveries",
  bulk_retry: "dead-lettered deliveries",
  replay: "messages",
  export: "attempts",
};

/** 0–100, never decreasing while the task runs: `total` is fixed when the task starts. */
export function progressOf(t: Pick<Task, "status" | "doneCount" | "totalCount">): number {
  if (t.status === "completed") return 100;
  if (!t.totalCount) return 0;
  const pct = Math.floor((100 * t.doneCount) / t.totalCount);
  return Math.max(0, Math.min(99, pct));
}

/** Linear extrapolation from the rate so far; null until there is a rate to go by. */
export function estimatedCompletion(
  t: Pick<Task, "status" | "doneCount" | "totalCount" | "startedAt">,
  now = Date.now(),
): string | null {
  if (t.status !== "running" || !t.startedAt || !t.totalCount || t.doneCount <= 0) return null;
  const elapsed = now - t.startedAt.getTime();
  const remaining = Math.max(0, t.totalCount - t.doneCount);
  return new Date(now + (elapsed / t.doneCount) * remaining).toISOString();
}

export function summaryOf(t: Task): string {
  const r = (t.result ?? {}) as TaskResult;
  const of = t.totalCount !== null ? ` of ${t.totalCount}` : "";
  const head = `${t.doneCount}${of} ${UNIT[t.kind]} processed`;
  const detail =
    t.kind === "replay"
      ? `${r.messages ?? 0} new messages, ${r.deliveries ?? 0} deliveries`
      : t.kind === "export"
        ? `${r.rows ?? 0} rows written`
        : `${r.retried ?? 0} re-attempted${r.skipped ? `, ${r.skipped} no longer failed` : ""}`;
  const tail =
    t.status === "cancelled"
      ? t.kind === "replay"
        ? `; cancelled: ${r.cancelled ?? 0} deliveries not yet attempted were stopped`
        : "; cancelled, work done so far is kept"
      : t.status === "failed"
        ? "; failed"
        : "";
  return `${head} (${detail})${tail}`;
}

/** When the export's file stops being downloadable; null when the task has no file to download. */
function resultExpiry(t: Task): Date | null {
  const r = (t.result ?? {}) as TaskResult;
  if (t.kind !== "export" || !r.file || !t.completedAt) return null;
  if (t.status !== "completed" && t.status !== "cancelled") return null;
  const expiry = new Date(t.completedAt.getTime() + env().HERALD_EXPORT_RETENTION_HOURS * 3_600_000);
  return expiry.getTime() > Date.now() ? expiry : null;
}

export function serializeTask(t: Task, linkScope?: LinkScope) {
  const r = (t.result ?? null) as TaskResult | null;
  const { file: _file, ...publicResult } = r ?? {};
  const scope = linkScope ?? { environmentId: t.environmentId, applicationId: t.applicationId };
  const expiry = resultExpiry(t);
  return {
    id: t.id,
    kind: t.kind,
    status: t.status,
    progress: progressOf(t),
    done: t.doneCount,
    total: t.totalCount,
    estimated_completion: estimatedCompletion(t),
    created_at: t.createdAt.toISOString(),
    started_at: t.startedAt?.toISOString() ?? null,
    completed_at: t.completedAt?.toISOString() ?? null,
    app_id: t.applicationId,
    endpoint_id: t.endpointId,
    params: t.params,
    result: r ? publicResult : null,
    summary: summaryOf(t),
    ...(expiry ? { result_url: resultUrl(t.id, scope), result_expires_at: expiry.toISOString() } : {}),
    ...(t.status === "failed"
      ? { error: { code: t.errorCode ?? "internal_error", message: t.errorMessage ?? "The task failed" } }
      : {}),
    cancel_requested_at: t.cancelRequestedAt?.toISOString() ?? null,
    callback_url: t.callbackUrl,
    callback_status: t.callbackStatus,
    status_url: statusUrl(t.id),
    events_url: eventsUrl(t.id, scope),
  };
}

export type TaskOut = ReturnType<typeof serializeTask>;

/** The 202 answer to a request that started a task. */
export function acceptedResponse(t: Task, scope: LinkScope, extra: Record<string, unknown> = {}): Response {
  const url = statusUrl(t.id);
  return Response.json(
    { task_id: t.id, status: t.status, status_url: url, events_url: eventsUrl(t.id, scope), ...extra },
    { status: 202, headers: { location: url } },
  );
}
