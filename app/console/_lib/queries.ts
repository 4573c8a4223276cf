"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApplicationOut } from "@/lib/applications/serialize";
import type { ApplicationSummary } from "@/lib/applications/application-summaries";
import type { EndpointOut } from "@/lib/endpoints/serialize";
import type { ApiKeyOut } from "@/lib/environments/api-keys";
import type { EventTypeOut } from "@/lib/event-types/serialize";
import type { EnvironmentOverview } from "@/lib/overview/environment-overview";
import type { DeliveryLogRow } from "@/lib/portal/delivery-logs";
import type { DeliveryTimeline } from "@/lib/portal/delivery-timeline";
import type { EndpointHealth } from "@/lib/portal/endpoint-health";
import type { FailureGroups } from "@/lib/portal/failure-groups";
import type { TaskOut } from "@/lib/tasks/serialize-task";
import type { LogFilterValues } from "@/components/portal/log-filters";
import { api } from "./api";
import { useConsole } from "./providers";

// TanStack Query hooks: all of the console's data access, through the operator API. Keys start
// with the environment, so switching environments never shows another one's cached data.

export type List<T> = { data: T[]; done: boolean; iterator: string | null; prevIterator: string | null };
const enc = encodeURIComponent;

function useEnv() {
  return useConsole().environment.id;
}

export function useOverview() {
  const env = useEnv();
  return useQuery({
    queryKey: [env, "overview"],
    queryFn: () => api<EnvironmentOverview>("/environment/overview"),
    refetchInterval: 15_000,
  });
}

export function useAppSummaries(search: string, iterator: string | undefined) {
  const env = useEnv();
  const q = new URLSearchParams({ limit: "25" });
  if (search) q.set("search", search);
  if (iterator) q.set("iterator", iterator);
  return useQuery({
    queryKey: [env, "app-summaries", search, iterator ?? null],
    queryFn: () => api<List<ApplicationSummary>>(`/environment/app-summary?${q}`),
    placeholderData: keepPreviousData,
  });
}

export function useApplication(appId: string) {
  const env = useEnv();
  return useQuery({ queryKey: [env, "app", appId], queryFn: () => api<ApplicationOut>(`/app/${enc(appId)}`) });
}

export function useEndpoints(appId: string) {
  const env = useEnv();
  return useQuery({
    queryKey: [env, "endpoints", appId],
    queryFn: () => api<List<EndpointOut>>(`/app/${enc(appId)}/endpoint?limit=250`),
  });
}

export function useEndpointHealth(appId: string) {
  const env = useEnv();
  return useQuery({
    queryKey: [env, "endpoint-health", appId],
    queryFn: () => api<EndpointHealth>(`/portal/app/${enc(appId)}/endpoint-health`),
    refetchInterval: 30_000,
  });
}

type LogFilters = LogFilterValues & { iterator?: string };

function logQueryString(f: LogFilters, limit = 25): string {
  const q = new URLSearchParams({ limit: String(limit) });
  if (f.endpoint) q.set("endpoint_id", f.endpoint);
  if (f.eventType) q.set("event_types", f.eventType);
  if (f.status) q.set("status", f.status);
  if (f.after) q.set("after", f.after);
  if (f.before) q.set("before", f.before);
  if (f.search) q.set("search", f.search);
  if (f.iterator) q.set("iterator", f.iterator);
  return q.toString();
}

export function useDeliveryLogs(appId: string, f: LogFilters) {
  const env = useEnv();
  return useQuery({
    queryKey: [env, "logs", appId, f],
    queryFn: () => api<List<DeliveryLogRow>>(`/portal/app/${enc(appId)}/delivery?${logQueryString(f)}`),
    placeholderData: keepPreviousData,
    refetchInterval: f.iterator ? false : 5_000,
  });
}

export function useDelivery(appId: string, id: string | null, live = false) {
  const env = useEnv();
  return useQuery({
    queryKey: [env, "delivery", appId, id],
    queryFn: () => api<DeliveryTimeline>(`/portal/app/${enc(appId)}/delivery/${enc(id!)}`),
    enabled: Boolean(id),
    refetchInterval: live ? 2_000 : false,
  });
}

export function useFailures(appId: string) {
  const env = useEnv();
  return useQuery({
    queryKey: [env, "failures", appId],
    queryFn: () => api<FailureGroups>(`/portal/app/${enc(appId)}/failure`),
    refetchInterval: 15_000,
  });
}

export function useEventTypes() {
  const env = useEnv();
  return useQuery({
    queryKey: [env, "event-types"],
    queryFn: () => api<List<EventTypeOut>>("/event-type?limit=250&include_archived=true&with_content=true"),
  });
}

export function useApiKeys() {
  const env = useEnv();
  return useQuery({ queryKey: [env, "api-keys"], queryFn: () => api<List<ApiKeyOut>>("/environment/api-key?limit=250") });
}

export type PortalLinkIn = { readOnly: boolean; expiry: number; featureFlags: string[] };

/** Mutations; each refreshes what it changes. */
export function useConsoleMutations() {
  const env = useEnv();
  const qc = useQueryClient();
  const refresh = (...keys: string[]) => Promise.all(keys.map((k) => qc.invalidateQueries({ queryKey: [env, k] })));
  return {
    createApp: useMutation({
      mutationFn: (body: { name: string; uid?: string }) => api<ApplicationOut>("/app", { method: "POST", body }),
      onSuccess: () => refresh("app-summaries", "overview"),
    }),
    portalLink: useMutation({
      mutationFn: ({ appId, body }: { appId: string; body: PortalLinkIn }) =>
        api<{ url: string; token: string }>(`/auth/app-portal-access/${enc(appId)}`, { method: "POST", body }),
    }),
    retry: useMutation({
      mutationFn: ({ appId, msgId, endpointId }: { appId: string; msgId: string; endpointId: string }) =>
        api<unknown>(`/app/${enc(appId)}/msg/${enc(msgId)}/endpoint/${enc(endpointId)}/resend`, { method: "POST" }),
      onSuccess: () => refresh("delivery", "logs"),
    }),
    replay: useMutation({
      mutationFn: ({ appId, msgId, endpointId }: { appId: string; msgId: string; endpointId?: string }) =>
        api<{ id: string; deliveries: number }>(`/app/${enc(appId)}/msg/${enc(msgId)}/replay`, {
          method: "POST",
          body: endpointId ? { endpoint_id: endpointId } : {},
        }),
      onSuccess: () => refresh("delivery", "logs"),
    }),
    bulkRetry: useMutation({
      mutationFn: ({ appId, body }: { appId: string; body: { endpoint_id: string; status_code: number } }) =>
        api<{ task_id: string }>(`/app/${enc(appId)}/bulk-retry`, { method: "POST", body }),
      onSuccess: () => refresh("failures"),
    }),
    cancelTask: useMutation({
      mutationFn: (taskId: string) => api<TaskOut>(`/tasks/${enc(taskId)}/cancel`, { method: "POST" }),
    }),
    saveEventType: useMutation({
      mutationFn: ({ name, body, create }: { name: string; body: Record<string, unknown>; create: boolean }) =>
        create
          ? api<EventTypeOut>("/event-type", { method: "POST", body: { name, ...body } })
          : api<EventTypeOut>(`/event-type/${enc(name)}`, { method: "PUT", body }),
      onSuccess: () => refresh("event-types"),
    }),
    patchEventType: useMutation({
      mutationFn: ({ name, body }: { name: string; body: Record<string, unknown> }) =>
        api<EventTypeOut>(`/event-type/${enc(name)}`, { method: "PATCH", body }),
      onSuccess: () => refresh("event-types"),
    }),
    createApiKey: useMutation({
      mutationFn: (name: string) => api<ApiKeyOut & { key: string }>("/environment/api-key", { method: "POST", body: { name } }),
      onSuccess: () => refresh("api-keys"),
    }),
    revokeApiKey: useMutation({
      mutationFn: (id: string) => api<ApiKeyOut>(`/environment/api-key/${enc(id)}`, { method: "DELETE" }),
      onSuccess: () => refresh("api-keys"),
    }),
  };
}
