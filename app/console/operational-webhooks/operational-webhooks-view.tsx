"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { EndpointState } from "@/components/portal/endpoint-state";
import { PageHeader } from "@/components/portal/page-header";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { formatTime } from "@/components/ui/format";
import { EmptyState, ErrorText, Notice, Spinner } from "@/components/ui/notice";
import { OPERATIONAL_EVENT_TYPES } from "@/lib/operational/event-types";
import type { serializeOperationalEndpoint } from "@/lib/operational/serialize";
import { api, fieldError } from "../_lib/api";
import { useConsole } from "../_lib/providers";
import type { List } from "../_lib/queries";

type OperationalEndpoint = ReturnType<typeof serializeOperationalEndpoint>;

/** The environment's own endpoints for events about delivery itself (endpoint disabled, attempts exhausted, tasks finished). */
export function OperationalWebhooksView() {
  const { environment, canWrite } = useConsole();
  const qc = useQueryClient();
  const key = [environment.id, "operational-endpoints"];
  const list = useQuery({ queryKey: key, queryFn: () => api<List<OperationalEndpoint>>("/operational-webhook/endpoint?limit=250") });
  const refresh = () => qc.invalidateQueries({ queryKey: key });
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<OperationalEndpoint>("/operational-webhook/endpoint", { method: "POST", body }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api<void>(`/operational-webhook/endpoint/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [types, setTypes] = useState<string[]>([]);

  return (
    <>
      <PageHeader
        title="Operational webhooks"
        description="Your own endpoints for events about delivery itself: an endpoint was disabled or came back, a message's attempts are failing or exhausted, a background task finished. Signed like every Herald webhook."
      />
      {canWrite && (
        <form
          className="mb-6 max-w-2xl space-y-3 rounded-lg border border-slate-200 bg-white p-4"
          aria-label="New operational endpoint"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate(
              { url: url.trim(), description, ...(types.length ? { filterTypes: types } : {}) },
              {
                onSuccess: () => {
                  setUrl("");
                  setDescription("");
                  setTypes([]);
                },
              },
            );
          }}
        >
          <Field label="Endpoint URL" error={fieldError(create.error, "url")}>
            {(f) => <input id={f.id} type="url" required aria-describedby={f.describedBy} aria-invalid={f.invalid} className={inputClass} value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://ops.example.com/herald" />}
          </Field>
          <Field label="Description">
            {(f) => <input id={f.id} className={inputClass} value={description} onChange={(e) => setDescription(e.target.value)} />}
          </Field>
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Events (none checked: all)</legend>
            <div className="mt-1 grid gap-1 sm:grid-cols-2">
              {OPERATIONAL_EVENT_TYPES.map((t) => (
                <label key={t} className="flex items-center gap-2 font-mono text-xs">
                  <input type="checkbox" checked={types.includes(t)} onChange={(e) => setTypes((p) => (e.target.checked ? [...p, t] : p.filter((x) => x !== t)))} />
                  {t}
                </label>
              ))}
            </div>
          </fieldset>
          {create.error && !fieldError(create.error, "url") && <ErrorText message={create.error.message} className="text-sm" />}
          <Button type="submit" variant="primary" disabled={create.isPending}>
            Add operational endpoint
          </Button>
        </form>
      )}
      {list.isPending && <Spinner label="Loading operational endpoints" />}
      {list.error && <Notice tone="error">{list.error.message}</Notice>}
      {list.data && list.data.data.length === 0 && <EmptyState title="No operational endpoints" />}
      {list.data && list.data.data.length > 0 && (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" aria-label="Operational endpoints">
          {list.data.data.map((ep) => (
            <li key={ep.id} className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0 space-y-1">
                <p className="truncate font-mono text-sm font-medium">{ep.url}</p>
                <p className="text-xs text-slate-600">
                  {ep.description || "No description"} · {ep.filterTypes ? ep.filterTypes.join(", ") : "all events"} · added {formatTime(ep.createdAt)}
                </p>
                <EndpointState endpoint={ep} />
              </div>
              {canWrite && (
                <Button size="sm" variant="danger" aria-label={`Delete ${ep.url}`} disabled={remove.isPending} onClick={() => remove.mutate(ep.id)}>
                  Delete
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ErrorText message={remove.error?.message} className="mt-2 text-sm" />
    </>
  );
}
