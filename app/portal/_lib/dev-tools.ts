"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CaptureOut, getCapture } from "@/lib/capture/manage-captures";
import { api } from "./api";
import { usePortal } from "./queries";

// Data access of the integrator tools in the portal: test URLs (lib/capture) and the catalog's
// OpenAPI download. Kept apart from queries.ts so the two evolve independently.

export type CaptureDetail = Awaited<ReturnType<typeof getCapture>>;
const enc = encodeURIComponent;

export function useCaptures() {
  const { appId } = usePortal();
  return useQuery({
    queryKey: ["captures", appId],
    queryFn: () => api<{ data: CaptureOut[] }>(`/app/${appId}/capture`),
  });
}

/** One test URL and its requests, refreshed every second or two while shown (the live view). */
export function useCapture(endpointId: string | null) {
  const { appId } = usePortal();
  return useQuery({
    queryKey: ["capture", appId, endpointId],
    queryFn: () => api<CaptureDetail>(`/app/${appId}/capture/${enc(endpointId!)}`),
    enabled: Boolean(endpointId),
    refetchInterval: 1_500,
  });
}

export function useCaptureMutations() {
  const { appId } = usePortal();
  const qc = useQueryClient();
  const refresh = () => Promise.all(["captures", "capture", "endpoints"].map((k) => qc.invalidateQueries({ queryKey: [k] })));
  return {
    create: useMutation({
      mutationFn: () => api<CaptureOut>(`/app/${appId}/capture`, { method: "POST", body: {} }),
      onSuccess: refresh,
    }),
    setAnswer: useMutation({
      mutationFn: ({ endpointId, answer }: { endpointId: string; answer: "ok" | "error" | "slow" }) =>
        api<CaptureDetail>(`/app/${appId}/capture/${enc(endpointId)}`, { method: "PATCH", body: { answer } }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (endpointId: string) => api<void>(`/app/${appId}/capture/${enc(endpointId)}`, { method: "DELETE" }),
      onSuccess: refresh,
    }),
    sendSample: useMutation({
      mutationFn: ({ endpointId, eventType }: { endpointId: string; eventType: string }) =>
        api<{ id: string }>(`/app/${appId}/endpoint/${enc(endpointId)}/send-example`, { method: "POST", body: { eventType } }),
      onSuccess: refresh,
    }),
  };
}

/** Fetches the catalog's OpenAPI document (with the session's bearer header) and saves it as a file. */
export async function downloadCatalogOpenApi(fileName: string): Promise<void> {
  const doc = await api<unknown>("/portal/event-type/openapi.json");
  const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
