"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { parseRetrySchedule, scheduleText } from "@/components/portal/endpoint-form";
import { PageHeader } from "@/components/portal/page-header";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { formatDuration } from "@/components/ui/format";
import { ErrorText, Notice, Spinner } from "@/components/ui/notice";
import { RETRY_SCHEDULE_BOUNDS } from "@/lib/endpoints/schemas";
import { api } from "../_lib/api";
import { useConsole } from "../_lib/providers";

type Settings = { retrySchedule: number[] | null; effectiveRetrySchedule: number[] };

export function SettingsView() {
  const { environment, canWrite } = useConsole();
  const qc = useQueryClient();
  const key = [environment.id, "settings"];
  const settings = useQuery({ queryKey: key, queryFn: () => api<Settings>("/environment/settings") });
  const save = useMutation({
    mutationFn: (retrySchedule: number[] | null) => api<Settings>("/environment/settings", { method: "PATCH", body: { retrySchedule } }),
    onSuccess: (s) => qc.setQueryData(key, s),
  });
  return (
    <>
      <PageHeader title="Settings" description={`Settings of ${environment.name}.`} />
      {settings.isPending && <Spinner label="Loading settings" />}
      {settings.error && <Notice tone="error">{settings.error.message}</Notice>}
      {settings.data && <RetryScheduleForm key={JSON.stringify(settings.data)} settings={settings.data} canWrite={canWrite} saving={save.isPending} error={save.error?.message} saved={save.isSuccess} onSave={(d) => save.mutate(d)} />}
    </>
  );
}

function RetryScheduleForm({
  settings,
  canWrite,
  saving,
  error,
  saved,
  onSave,
}: {
  settings: Settings;
  canWrite: boolean;
  saving: boolean;
  error: string | undefined;
  saved: boolean;
  onSave: (delays: number[] | null) => void;
}) {
  const [text, setText] = useState(scheduleText(settings.retrySchedule));
  const parsed = text.trim() ? parseRetrySchedule(text, RETRY_SCHEDULE_BOUNDS) : null;
  const problem = parsed && "error" in parsed ? parsed.error : undefined;
  return (
    <form
      className="max-w-2xl space-y-3 rounded-lg border border-slate-200 bg-white p-4"
      aria-labelledby="retry-heading"
      onSubmit={(e) => {
        e.preventDefault();
        if (problem) return;
        onSave(parsed && "delays" in parsed ? parsed.delays : null);
      }}
    >
      <h2 id="retry-heading" className="text-base font-semibold">
        Retry schedule
      </h2>
      <p className="text-sm text-slate-600">
        How long Herald waits before each retry of a failed delivery, for endpoints without a schedule of their own. Applies to retries scheduled from now on.
      </p>
      <fieldset disabled={!canWrite} className="space-y-3">
        <Field label="Delays between attempts" hint="e.g. 5s, 5m, 30m, 2h. Empty: the platform default." error={problem}>
          {(f) => <input id={f.id} aria-describedby={f.describedBy} aria-invalid={f.invalid} className={inputClass} value={text} onChange={(e) => setText(e.target.value)} placeholder={scheduleText(settings.effectiveRetrySchedule)} />}
        </Field>
        <p className="text-xs text-slate-600">
          In effect now: {settings.effectiveRetrySchedule.map(formatDuration).join(" → ")} ({settings.effectiveRetrySchedule.length + 1} attempts
          {settings.retrySchedule ? "" : ", the platform default"}).
        </p>
        {canWrite && (
          <Button type="submit" variant="primary" disabled={saving || Boolean(problem)}>
            Save retry schedule
          </Button>
        )}
      </fieldset>
      <ErrorText message={error} className="text-sm" />
      {saved && !error && <p role="status" className="text-sm text-green-800">Saved.</p>}
    </form>
  );
}
