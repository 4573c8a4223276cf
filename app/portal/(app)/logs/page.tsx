"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { Suspense, useMemo, useState } from "react";
import { AttemptInspector, type InspectorNotice } from "@/components/portal/attempt-inspector";
import { DeliveryLogTable } from "@/components/portal/delivery-log-table";
import { LogFilters, type LogFilterValues } from "@/components/portal/log-filters";
import { PageHeader } from "@/components/portal/page-header";
import { ExportDialog } from "@/components/portal/export-dialog";
import { RangeReplayDialog } from "@/components/portal/range-replay-dialog";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { formatTime } from "@/components/ui/format";
import { LiveStatus, LoadError } from "@/components/portal/live-status";
import { EmptyState, Spinner } from "@/components/ui/notice";
import { useTaskStream } from "@/app/_lib/task-stream";
import { client } from "../../_lib/api";
import {
  useCatalog,
  useDelivery,
  useDeliveryLogs,
  useEndpoints,
  liveState,
  usePortal,
  usePortalMutations,
  useReplayDeliveries,
  type ReplayFilter,
} from "../../_lib/queries";

const KEYS = ["endpoint", "eventType", "status", "statusCode", "after", "before", "search", "payload"] as const;

/** Our status filter as the replay's "status of the original delivery". */
const ORIGINAL_STATUS: Record<string, ReplayFilter["original_status"]> = {
  succeeded: ["success"],
  dead_lettered: ["fail"],
  canceled: ["fail"],
  failed: ["pending", "sending"],
  pending: ["pending", "sending"],
};

function Logs() {
  const { capabilities } = usePortal();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters: LogFilterValues = useMemo(
    () => Object.fromEntries(KEYS.map((k) => [k, params.get(k) ?? undefined]).filter(([, v]) => v)) as LogFilterValues,
    [params],
  );
  const cursor = params.get("cursor") ?? undefined;
  const open = params.get("delivery");

  const navigate = (next: Record<string, string | undefined>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(next)) if (v) q.set(k, v);
    router.replace(`${pathname}${q.size ? `?${q}` : ""}`, { scroll: false });
  };
  const current = { ...filters, cursor, delivery: open ?? undefined };

  // A payload search is not polled: it is the one read that is not an index range (search-payloads.ts).
  const logs = useDeliveryLogs({ ...filters, ...(cursor ? { iterator: cursor } : {}) }, { live: !cursor && !filters.payload });
  const endpoints = useEndpoints();
  const catalog = useCatalog();
  const m = usePortalMutations();

  // Inspector.
  const [notice, setNotice] = useState<InspectorNotice | null>(null);
  const [watching, setWatching] = useState(false);
  const delivery = useDelivery(open, watching);

  // Range replay.
  const [replayOpen, setReplayOpen] = useState(false);
  const [replayRun, setReplayRun] = useState(0);
  const [taskId, setTaskId] = useState<string | null>(null);
  const stream = useTaskStream(client, taskId);
  const replayDeliveries = useReplayDeliveries(taskId, Boolean(stream.task && ["completed", "failed", "cancelled"].includes(stream.task.status)));
  const replayFilter: ReplayFilter = {
    since: filters.after ?? null,
    until: filters.before ?? null,
    event_types: filters.eventType ? filters.eventType.split(",") : null,
    endpoint_id: filters.endpoint ?? null,
    original_status: filters.status ? [...new Set(filters.status.split(",").flatMap((st) => ORIGINAL_STATUS[st] ?? []))] : null,
  };
  // Export: the same filters, as far as an export of attempts can apply them (the rest are listed as not applied).
  const [exportOpen, setExportOpen] = useState(false);
  const [exportRun, setExportRun] = useState(0);
  const [exportTaskId, setExportTaskId] = useState<string | null>(null);
  const exportStream = useTaskStream(client, exportTaskId);
  const exportRequest = {
    endpoint_id: filters.endpoint ?? null,
    since: filters.after ?? null,
    until: filters.before ?? null,
    event_types: filters.eventType ? filters.eventType.split(",") : null,
    status_code: filters.statusCode !== undefined ? Number(filters.statusCode) : null,
  };
  const endpointName = (id: string) => endpoints.data?.data.find((e) => e.id === id)?.url ?? id;

  const rows = logs.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Delivery logs"
        description="Every delivery of a message to one of your endpoints, newest first. Open one to see each attempt: the exact request with its signature, and what your server answered."
        actions={
          <>
            {capabilities.write && (
              <Button
                onClick={() => {
                  setExportTaskId(null);
                  setExportRun((n) => n + 1);
                  m.startExport.reset();
                  setExportOpen(true);
                }}
              >
                Export these logs…
              </Button>
            )}
            {capabilities.replay && (
              <Button
                onClick={() => {
                  setTaskId(null);
                  setReplayRun((n) => n + 1);
                  m.startReplay.reset();
                  m.estimateReplay.reset();
                  setReplayOpen(true);
                  m.estimateReplay.mutate(replayFilter);
                }}
              >
                Replay these messages…
              </Button>
            )}
          </>
        }
      />
      <LogFilters
        key={`${filters.search ?? ""}\n${filters.payload ?? ""}`}
        values={filters}
        endpoints={endpoints.data?.data ?? []}
        eventTypes={(catalog.data?.data ?? []).map((t) => t.name)}
        onChange={(next) => navigate({ ...next })}
      />
      <div className="mt-4">
        {logs.isPending && <Spinner label="Loading deliveries" />}
        <LoadError title="Could not load the delivery log" error={logs.error} onRetry={() => void logs.refetch()} />
        {logs.data && rows.length === 0 && (
          <EmptyState title="No deliveries match">
            {Object.keys(filters).length > 0 ? "Try a wider time range or fewer filters." : "Deliveries appear here as soon as events are sent to your endpoints."}
          </EmptyState>
        )}
        {logs.data?.search?.limited && (
          <p className="mb-2 text-sm text-slate-700" role="status">
            Showing the deliveries of the {logs.data.search.messages} newest matching messages. Narrow the search or the time range to see older ones.
          </p>
        )}
        {rows.length > 0 && <DeliveryLogTable rows={rows} busy={logs.isPlaceholderData} onOpen={(id) => navigate({ ...current, delivery: id })} />}
        {logs.data && (
          <nav aria-label="Pages" className="mt-3 flex items-center justify-between gap-2">
            <Button
              disabled={!cursor}
              onClick={() => {
                // Walking back: the last page in that direction is the newest, shown live without a cursor.
                const atNewest = !rows.length || (cursor?.startsWith("-") && logs.data.done);
                navigate({ ...filters, cursor: atNewest ? undefined : (logs.data.prevIterator ?? undefined) });
              }}
            >
              ← Newer
            </Button>
            {!cursor && !filters.payload ? <LiveStatus {...liveState(logs)} label="Newest · updates live" /> : <span />}
            <Button
              disabled={cursor?.startsWith("-") ? !rows.length : logs.data.done}
              onClick={() => navigate({ ...filters, cursor: logs.data.iterator ?? undefined })}
            >
              Older →
            </Button>
          </nav>
        )}
      </div>

      <Dialog
        wide
        open={Boolean(open)}
        onClose={() => {
          setNotice(null);
          setWatching(false);
          navigate({ ...filters, cursor });
        }}
        title="Delivery inspector"
      >
        {delivery.isPending && <Spinner label="Loading attempts" />}
        <LoadError title="Could not load this delivery" error={delivery.error} onRetry={() => void delivery.refetch()} />
        {delivery.data && (
          <AttemptInspector
            key={delivery.data.id}
            timeline={delivery.data}
            canRetry={capabilities.retry}
            canReplay={capabilities.replay}
            retrying={m.retry.isPending}
            replaying={m.replay.isPending}
            notice={notice}
            onOpenMessage={(msgId) => navigate({ search: msgId })}
            onRetry={() =>
              m.retry.mutate(
                { msgId: delivery.data.message.id, endpointId: delivery.data.endpoint.id },
                {
                  onSuccess: () => {
                    setNotice({ tone: "ok", text: "Retry queued: a new attempt of this delivery (same webhook-id) will appear in the timeline.", retry: true });
                    setWatching(true);
                    setTimeout(() => setWatching(false), 30_000);
                  },
                  onError: (e) => setNotice({ tone: "error", text: e.message }),
                },
              )
            }
            onReplay={(toEveryEndpoint) =>
              m.replay.mutate(
                { msgId: delivery.data.message.id, ...(toEveryEndpoint ? {} : { endpointId: delivery.data.endpoint.id }) },
                {
                  onSuccess: (r) => {
                    setNotice({ tone: "ok", text: `Replayed as a new message with ${r.deliveries} deliver${r.deliveries === 1 ? "y" : "ies"}:`, messageId: r.id });
                    // To this endpoint: open the new message's delivery (stored with the message), so the
                    // reader sees its attempt arrive rather than the original's timeline.
                    if (!toEveryEndpoint)
                      void m.deliveryOf(r.id, delivery.data.endpoint.id).then((row) => {
                        if (!row) return;
                        setWatching(true);
                        setTimeout(() => setWatching(false), 30_000);
                        navigate({ ...current, delivery: row.id });
                      });
                  },
                  onError: (e) => setNotice({ tone: "error", text: e.message }),
                },
              )
            }
          />
        )}
      </Dialog>

      <ExportDialog
        key={`export-${exportRun}`}
        open={exportOpen}
        onClose={() => setExportOpen(false)}
        scope={
          <ul className="space-y-0.5">
            <li>Time range: {filters.after ? formatTime(filters.after) : "the beginning"} → {filters.before ? formatTime(filters.before) : "now"}</li>
            <li>Event type: {filters.eventType?.split(",").join(", ") ?? "all"}</li>
            <li>Endpoint: {filters.endpoint ? endpointName(filters.endpoint) : "all endpoints"}</li>
            {filters.statusCode !== undefined && <li>Last response: {filters.statusCode === "0" ? "no HTTP answer" : filters.statusCode}</li>}
            {filters.status && <li>The status filter is not applied: the file lists every attempt, each with its own status.</li>}
            {(filters.search || filters.payload) && <li>The search is not applied to an export.</li>}
          </ul>
        }
        onStart={(format) => m.startExport.mutate({ format, ...exportRequest }, { onSuccess: (t) => setExportTaskId(t.task_id) })}
        starting={m.startExport.isPending}
        startError={m.startExport.error?.message}
        task={exportTaskId ? { id: exportTaskId, state: exportStream.task } : null}
        taskError={exportStream.error}
        canCancel={capabilities.tasks}
        cancelling={m.cancelTask.isPending}
        onCancelTask={() => exportTaskId && m.cancelTask.mutate(exportTaskId)}
      />

      <RangeReplayDialog
        key={replayRun}
        open={replayOpen}
        onClose={() => setReplayOpen(false)}
        scope={
          <ul className="space-y-0.5">
            <li>Time range: {filters.after ? formatTime(filters.after) : "the beginning"} → {filters.before ? formatTime(filters.before) : "now"}</li>
            <li>Event type: {filters.eventType?.split(",").join(", ") ?? "all"}</li>
            <li>Endpoint: {filters.endpoint ? endpointName(filters.endpoint) : "every subscribed, active endpoint"}</li>
            <li>
              {filters.endpoint
                ? "Messages: those this endpoint subscribes to (its event types and channels), including ones sent before it existed, and its own samples; samples sent to other endpoints are left out."
                : "Messages: each goes to the active endpoints subscribed to it now; a sample only to the endpoint it was sent to."}
            </li>
            <li>Original delivery status: {filters.status?.split(",").join(", ") ?? "any"}</li>
            {(filters.search || filters.payload) && <li>The search is not applied to a range replay; replay a single message from its inspector.</li>}
            {filters.statusCode !== undefined && <li>The last-response filter is not applied to a range replay.</li>}
            <li>Messages that are themselves replays are skipped.</li>
          </ul>
        }
        estimate={m.estimateReplay.data ?? null}
        estimating={m.estimateReplay.isPending}
        estimateError={m.estimateReplay.error?.message}
        endpointCount={filters.endpoint ? 1 : null}
        starting={m.startReplay.isPending}
        startError={m.startReplay.error?.message}
        onConfirm={() => {
          const est = m.estimateReplay.data;
          if (!est) return;
          m.startReplay.mutate({ ...replayFilter, until: est.until, confirmation: est.confirmation }, { onSuccess: (t) => setTaskId(t.task_id) });
        }}
        task={taskId ? { id: taskId, state: stream.task } : null}
        taskError={stream.error}
        cancelling={m.cancelTask.isPending}
        onCancelTask={() => taskId && m.cancelTask.mutate(taskId)}
        deliveries={replayDeliveries.data ?? null}
      />
    </>
  );
}

export default function LogsPage() {
  return (
    <Suspense fallback={<Spinner label="Loading deliveries" />}>
      <Logs />
    </Suspense>
  );
}
