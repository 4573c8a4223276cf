"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import type { EndpointOut } from "@/lib/endpoints/serialize";
import type { MessageOut } from "@/lib/messages/serialize";
import type { EndpointHealth } from "@/lib/portal/endpoint-health";
import type { EndpointMetrics, MetricWindow } from "@/lib/endpoints/endpoint-metrics";
import type { PortalCatalog } from "@/lib/portal/portal-catalog";
import type { DeliveryLogRow } from "@/lib/portal/delivery-logs";
import type { DeliveryTimeline } from "@/lib/portal/delivery-timeline";
import type { FailureGroups } from "@/lib/portal/failure-groups";
import type { EndpointAlerts } from "@/lib/notifications/endpoint-alerts";
import type { PortalSettings } from "@/lib/portal/portal-settings";
import type { ExamplePreview } from "@/lib/portal/preview-example";
import type { TaskOut } from "@/lib/tasks/serialize-task";
import type { ReplayDeliveryCounts } from "@/lib/tasks/replay/replay-deliveries";
import type { estimateReplay } from "@/lib/tasks/replay/start-replay";
import type { LogFilterValues } from "@/components/portal/log-filters";
import { api } from "./api";
import { getState, subscribe, type PortalSession, type SessionState } from "./session-store";

// TanStack Query hooks: all of the portal's data access. Components get data through props.

export type List<T> = { data: T[]; done: boolean; iterator: string | null; prevIterator: string | null };

const LOADING: SessionState = { status: "loading" };
export function useSessionState(): SessionState {
  return useSyncExternalStore(subscribe, getState, () => LOADING);
}

/** The active session; only used below the gate in the portal layout. */
export function usePortal(): PortalSession & { appId: string } {
  const s = useSessionState();
  if (s.status !== "active") throw new Error("usePortal outside an active session");
  return { ...s.session, appId: s.session.application.id };
}

const enc = encodeURIComponent;

// How often pages that show changing numbers ask again (the log, live, every 4 s; a delivery
// being inspected every 2 s). Paused while the tab is hidden (TanStack's default).
const LIVE_MS = 10_000;

/** What a page's "Updates live" indicator needs from its main query. */
export function liveState(q: { isError: boolean; failureCount: number; dataUpdatedAt: number }) {
  return { stale: q.isError || q.failureCount > 0, updatedAt: q.dataUpdatedAt };
}

export function useSettings() {
  return useQuery({
    queryKey: ["settings"],
    queryFn: () => api<PortalSettings>("/portal/settings"),
    staleTime: Infinity,
  });
}

/** The operator's branding, once there is a session to read it with (null before). */
export function useBranding(): PortalSettings["branding"] | null {
  const active = useSessionState().status === "active";
  const settings = useQuery({
    queryKey: ["settings"],
    queryFn: () => api<PortalSettings>("/portal/settings"),
    staleTime: Infinity,
    enabled: active,
  });
  return active ? (settings.data?.branding ?? null) : null;
}

export function useEndpoints() {
  const { appId } = usePortal();
  return useQuery({
    queryKey: ["endpoints", appId],
    queryFn: () => api<List<EndpointOut>>(`/app/${appId}/endpoint?limit=250`),
    refetchInterval: LIVE_MS,
  });
}

export function useEndpoint(id: string) {
  const { appId } = usePortal();
  return useQuery({
    queryKey: ["endpoint", appId, id],
    queryFn: () => api<EndpointOut>(`/app/${appId}/endpoint/${enc(id)}`),
    refetchInterval: LIVE_MS,
  });
}

export function useEndpointHealth() {
  const { appId } = usePortal();
  return useQuery({
    queryKey: ["endpoint-health", appId],
    queryFn: () => api<EndpointHealth>(`/portal/app/${appId}/endpoint-health`),
    refetchInterval: LIVE_MS,
  });
}

export type EndpointStats = { success: number; fail: number; pending: number; sending: number; canceled?: number };
export function useEndpointStats(id: string) {
  const { appId } = usePortal();
  const since = new Date(Date.now() - 24 * 3600_000).toISOString();
  return useQuery({
    queryKey: ["endpoint-stats", appId, id],
    queryFn: () => api<EndpointStats>(`/app/${appId}/endpoint/${enc(id)}/stats?since=${enc(since)}`),
    refetchInterval: LIVE_MS,
  });
}

export function useEndpointMetrics(id: string, window: MetricWindow) {
  const { appId } = usePortal();
  return useQuery({
    queryKey: ["endpoint-metrics", appId, id, window],
    queryFn: () => api<EndpointMetrics>(`/app/${appId}/endpoint/${enc(id)}/metrics?window=${window}`),
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_MS,
  });
}

export function useEndpointSecret(id: string, enabled: boolean) {
  const { appId } = usePortal();
  return useQuery({
    queryKey: ["endpoint-secret", appId, id],
    queryFn: () => api<{ key: string }>(`/app/${appId}/endpoint/${enc(id)}/secret`),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}

export type EndpointHeaders = { headers: Record<string, string>; sensitive: string[] };
export function useEndpointHeaders(id: string) {
  const { appId } = usePortal();
  return useQuery({
    queryKey: ["endpoint-headers", appId, id],
    queryFn: () => api<EndpointHeaders>(`/app/${appId}/endpoint/${enc(id)}/headers`),
  });
}

export function useCatalog() {
  return useQuery({
    queryKey: ["catalog"],
    queryFn: () => api<PortalCatalog>("/portal/event-type"),
    staleTime: 60_000,
  });
}

type LogFilters = LogFilterValues & { iterator?: string };

/** With a search: how many messages matched, and whether more did than a search reads. */
type DeliveryLogList = List<DeliveryLogRow> & { search?: { messages: number; limited: boolean } };

function logQueryString(f: LogFilters, limit = 50): string {
  const q = new URLSearchParams({ limit: String(limit) });
  if (f.endpoint) q.set("endpoint_id", f.endpoint);
  if (f.eventType) q.set("event_types", f.eventType);
  if (f.status) q.set("status", f.status);
  if (f.statusCode !== undefined) q.set("status_code", f.statusCode);
  if (f.after) q.set("after", f.after);
  if (f.before) q.set("before", f.before);
  if (f.search) q.set("search", f.search);
  if (f.payload) q.set("payload", f.payload);
  if (f.iterator) q.set("iterator", f.iterator);
  return q.toString();
}

export function useDeliveryLogs(f: LogFilters, opts: { live?: boolean; limit?: number } = {}) {
  const { appId } = usePortal();
  return useQuery({
    queryKey: ["logs", appId, f, opts.limit ?? 50],
    queryFn: () => api<DeliveryLogList>(`/portal/app/${appId}/delivery?${logQueryString(f, opts.limit)}`),
    placeholderData: keepPreviousData,
    refetchInterval: opts.live ? 4_000 : false,
  });
}

/**
 * The delivery of a message just created (a sample, a replay) to one endpoint: polled until the
 * fan-out's row is found, then that row.
 */
export function useDeliveryOfMessage(msgId: string | null, endpointId: string | null) {
  const { appId } = usePortal();
  return useQuery({
    queryKey: ["delivery-of", appId, msgId, endpointId],
    queryFn: () =>
      api<List<DeliveryLogRow>>(`/portal/app/${appId}/delivery?${logQueryString({ search: msgId!, endpoint: endpointId! }, 5)}`),
    enabled: Boolean(msgId && endpointId),
    refetchInterval: (q) => (q.state.data?.data.length ? false : 1_000),
    select: (list) => list.data[0] ?? null,
  });
}

export function useDelivery(id: string | null, live = false) {
  const { appId } = usePortal();
  return useQuery({
    queryKey: ["delivery", appId, id],
    queryFn: () => api<DeliveryTimeline>(`/portal/app/${appId}/delivery/${enc(id!)}`),
    enabled: Boolean(id),
    refetchInterval: live ? 2_000 : false,
  });
}

export function useFailures() {
  const { appId } = usePortal();
  return useQuery({
    queryKey: ["failures", appId],
    queryFn: () => api<FailureGroups>(`/portal/app/${appId}/failure`),
    refetchInterval: LIVE_MS,
  });
}

/** Endpoints failing or disabled by Herald: the banner on every portal page. */
export function useEndpointAlerts() {
  const { appId } = usePortal();
  return useQuery({
    queryKey: ["endpoint-alerts", appId],
    queryFn: () => api<EndpointAlerts>(`/portal/app/${appId}/endpoint-alerts`),
    refetchInterval: LIVE_MS,
  });
}

/** member false: a magic link's portal, with nobody to email (the page is only shown to members). */
export type AlertSettings = { email: string | null; endpointAlerts: boolean; emailConfigured: boolean; member: boolean };
/** The signed-in member's email alerts (member portals only). */
export function useAlertSettings() {
  const { appId, member } = usePortal();
  return useQuery({
    queryKey: ["alert-settings", appId],
    queryFn: () => api<AlertSettings>("/portal/notifications"),
    enabled: Boolean(member),
  });
}

/** Where a replay task's deliveries stand, polled while any is still on its way. */
export function useReplayDeliveries(taskId: string | null, taskFinished: boolean) {
  return useQuery({
    queryKey: ["replay-deliveries", taskId],
    queryFn: () => api<ReplayDeliveryCounts>(`/tasks/${enc(taskId!)}/deliveries`),
    enabled: Boolean(taskId),
    refetchInterval: (q) => {
      const c = q.state.data;
      return taskFinished && c && c.waiting + c.sending + c.retrying === 0 ? false : 1_000;
    },
  });
}

/** `payload`: the edited payload (null: the event type's example), as the server will check it. */
export function useExamplePreview(
  endpointId: string | null,
  eventType: string | null,
  payload: Record<string, unknown> | null,
  enabled: boolean,
) {
  const { appId } = usePortal();
  return useQuery({
    queryKey: ["preview", appId, endpointId, eventType, payload],
    queryFn: () =>
      api<ExamplePreview>(`/portal/app/${appId}/endpoint/${enc(endpointId!)}/preview-example`, {
        method: "POST",
        body: payload ? { eventType, payload } : { eventType },
      }),
    enabled: enabled && Boolean(endpointId && eventType),
    // While the payload is being edited, the last request stays on screen until the next is built.
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** How many of an event type's latest messages "Use a recent message" offers. */
export const RECENT_MESSAGES = 5;

/** The application's latest messages of one event type, with their payloads (the session's application only). */
export function useRecentMessages(eventType: string | null) {
  const { appId } = usePortal();
  return useQuery({
    queryKey: ["recent-messages", appId, eventType],
    queryFn: () => api<List<MessageOut>>(`/app/${appId}/msg?event_types=${enc(eventType!)}&limit=${RECENT_MESSAGES}`),
    enabled: Boolean(eventType),
  });
}

export type TaskStarted = { task_id: string; status: string; status_url: string; events_url: string };
/** POST /app/{app}/attempt/export: the log's filters that an export of attempts can apply. */
export type ExportRequest = {
  format: "csv" | "ndjson";
  endpoint_id?: string | null;
  since?: string | null;
  until?: string | null;
  event_types?: string[] | null;
  status_code?: number | null;
};

export type ReplayFilter = {
  since?: string | null;
  until?: string | null;
  event_types?: string[] | null;
  endpoint_id?: string | null;
  original_status?: ("success" | "fail" | "pending" | "sending")[] | null;
};
type ReplayEstimate = Awaited<ReturnType<typeof estimateReplay>>;

/** Mutations; each refreshes what it changes. */
export function usePortalMutations() {
  const { appId } = usePortal();
  const qc = useQueryClient();
  const refresh = (...keys: string[]) => Promise.all(keys.map((k) => qc.invalidateQueries({ queryKey: [k] })));
  const ep = (id: string) => `/app/${appId}/endpoint/${enc(id)}`;
  return {
    createEndpoint: useMutation({
      mutationFn: (body: Record<string, unknown>) =>
        api<EndpointOut>(`/app/${appId}/endpoint`, { method: "POST", body }),
      onSuccess: () => refresh("endpoints"),
    }),
    updateEndpoint: useMutation({
      mutationFn: ({ id, body }: { id: string; body: Record<string, unknown> }) =>
        api<EndpointOut>(ep(id), { method: "PATCH", body }),
      onSuccess: () => refresh("endpoints", "endpoint", "endpoint-alerts"),
    }),
    setAlerts: useMutation({
      mutationFn: (endpointAlerts: boolean) =>
        api<AlertSettings>("/portal/notifications", { method: "PUT", body: { endpointAlerts } }),
      onSuccess: (data) => qc.setQueryData(["alert-settings", appId], data),
    }),
    replaceHeaders: useMutation({
      mutationFn: ({ id, headers }: { id: string; headers: Record<string, string | null> }) =>
        api<void>(`${ep(id)}/headers`, { method: "PATCH", body: { headers } }),
      onSuccess: () => refresh("endpoint-headers"),
    }),
    deleteEndpoint: useMutation({
      mutationFn: (id: string) => api<void>(ep(id), { method: "DELETE" }),
      onSuccess: () => refresh("endpoints", "endpoint-health", "failures"),
    }),
    rotateSecret: useMutation({
      mutationFn: (id: string) => api<void>(`${ep(id)}/secret/rotate`, { method: "POST", body: {} }),
      onSuccess: () => refresh("endpoint-secret"),
    }),
    validateUrl: (url: string, signal?: AbortSignal) =>
      api<{ ok: true; url: string } | { ok: false; reason: string }>(`/portal/app/${appId}/validate-url`, {
        method: "POST",
        body: { url },
        ...(signal ? { signal } : {}),
      }),
    /** The delivery of a message just published or replayed to one endpoint (null if it has none). */
    deliveryOf: (msgId: string, endpointId: string) =>
      api<List<DeliveryLogRow>>(`/portal/app/${appId}/delivery?${logQueryString({ search: msgId, endpoint: endpointId }, 5)}`).then(
        (list) => list.data[0] ?? null,
      ),
    sendExample: useMutation({
      mutationFn: ({ endpointId, eventType, payload }: { endpointId: string; eventType: string; payload: Record<string, unknown> | null }) =>
        api<{ id: string }>(`${ep(endpointId)}/send-example`, {
          method: "POST",
          body: payload ? { eventType, payload } : { eventType },
        }),
      onSuccess: () => refresh("logs", "recent-messages"),
    }),
    replay: useMutation({
      mutationFn: ({ msgId, endpointId }: { msgId: string; endpointId?: string }) =>
        api<{ id: string; deliveries: number }>(`/app/${appId}/msg/${enc(msgId)}/replay`, {
          method: "POST",
          body: endpointId ? { endpoint_id: endpointId } : {},
        }),
      onSuccess: () => refresh("delivery", "logs"),
    }),
    estimateReplay: useMutation({
      mutationFn: (filter: ReplayFilter) =>
        api<ReplayEstimate>(`/app/${appId}/replay/estimate`, { method: "POST", body: filter }),
    }),
    startReplay: useMutation({
      mutationFn: (body: ReplayFilter & { confirmation: string }) =>
        api<TaskStarted>(`/app/${appId}/replay`, { method: "POST", body }),
    }),
    bulkRetry: useMutation({
      mutationFn: (body: { endpoint_id: string; status_code: number }) =>
        api<TaskStarted>(`/app/${appId}/bulk-retry`, { method: "POST", body }),
    }),
    startExport: useMutation({
      mutationFn: (body: ExportRequest) => api<TaskStarted>(`/app/${appId}/attempt/export`, { method: "POST", body }),
    }),
    cancelTask: useMutation({
      mutationFn: (taskId: string) => api<TaskOut>(`/tasks/${enc(taskId)}/cancel`, { method: "POST" }),
    }),
    retry: useMutation({
      mutationFn: ({ msgId, endpointId }: { msgId: string; endpointId: string }) =>
        api<unknown>(`/app/${appId}/msg/${enc(msgId)}/endpoint/${enc(endpointId)}/resend`, { method: "POST" }),
      onSuccess: () => refresh("delivery", "logs"),
    }),
  };
}
