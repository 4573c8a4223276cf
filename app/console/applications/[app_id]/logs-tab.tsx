"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { AttemptInspector, type InspectorNotice } from "@/components/portal/attempt-inspector";
import { DeliveryLogTable } from "@/components/portal/delivery-log-table";
import { LogFilters, type LogFilterValues } from "@/components/portal/log-filters";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState, Notice, Spinner } from "@/components/ui/notice";
import { useConsole } from "../../_lib/providers";
import { useConsoleMutations, useDelivery, useDeliveryLogs, useEndpoints, useEventTypes } from "../../_lib/queries";

const KEYS = ["endpoint", "eventType", "status", "after", "before", "search"] as const;

/** The portal's delivery log and attempt inspector (retry, replay), for the operator. */
export function LogsTab({ appId }: { appId: string }) {
  const { canWrite } = useConsole();
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
    const q = new URLSearchParams({ tab: "logs" });
    for (const [k, v] of Object.entries(next)) if (v) q.set(k, v);
    router.replace(`${pathname}?${q}`, { scroll: false });
  };

  const logs = useDeliveryLogs(appId, { ...filters, ...(cursor ? { iterator: cursor } : {}) });
  const endpoints = useEndpoints(appId);
  const catalog = useEventTypes();
  const m = useConsoleMutations();
  const [notice, setNotice] = useState<InspectorNotice | null>(null);
  const [watching, setWatching] = useState(false);
  const delivery = useDelivery(appId, open, watching);
  const rows = logs.data?.data ?? [];

  return (
    <>
      <LogFilters
        key={filters.search ?? ""}
        values={filters}
        endpoints={endpoints.data?.data ?? []}
        eventTypes={(catalog.data?.data ?? []).map((t) => t.name)}
        onChange={(next) => navigate({ ...next })}
      />
      <div className="mt-4">
        {logs.isPending && <Spinner label="Loading deliveries" />}
        {logs.error && <Notice tone="error" title="Could not load the delivery log">{logs.error.message}</Notice>}
        {logs.data && rows.length === 0 && <EmptyState title="No deliveries match" />}
        {rows.length > 0 && <DeliveryLogTable rows={rows} busy={logs.isPlaceholderData} onOpen={(id) => navigate({ ...filters, cursor, delivery: id })} />}
        {logs.data && (
          <nav aria-label="Pages" className="mt-3 flex items-center justify-between gap-2">
            <Button
              disabled={!cursor}
              onClick={() => navigate({ ...filters, cursor: !rows.length || (cursor?.startsWith("-") && logs.data.done) ? undefined : (logs.data.prevIterator ?? undefined) })}
            >
              ← Newer
            </Button>
            <Button disabled={cursor?.startsWith("-") ? !rows.length : logs.data.done} onClick={() => navigate({ ...filters, cursor: logs.data.iterator ?? undefined })}>
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
        {delivery.error && <Notice tone="error">{delivery.error.message}</Notice>}
        {delivery.data && (
          <AttemptInspector
            timeline={delivery.data}
            canRetry={canWrite}
            canReplay={canWrite}
            retrying={m.retry.isPending}
            replaying={m.replay.isPending}
            notice={notice}
            onOpenMessage={(msgId) => navigate({ search: msgId })}
            onRetry={() =>
              m.retry.mutate(
                { appId, msgId: delivery.data.message.id, endpointId: delivery.data.endpoint.id },
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
                { appId, msgId: delivery.data.message.id, ...(toEveryEndpoint ? {} : { endpointId: delivery.data.endpoint.id }) },
                {
                  onSuccess: (r) => setNotice({ tone: "ok", text: `Replayed as a new message with ${r.deliveries} deliver${r.deliveries === 1 ? "y" : "ies"}:`, messageId: r.id }),
                  onError: (e) => setNotice({ tone: "error", text: e.message }),
                },
              )
            }
          />
        )}
      </Dialog>
    </>
  );
}
