"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactNode } from "react";
import { parseRetrySchedule, scheduleText } from "@/components/portal/endpoint-form";
import { PageHeader } from "@/components/portal/page-header";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { formatDuration } from "@/components/ui/format";
import { ErrorText, Notice, Spinner } from "@/components/ui/notice";
import { RETRY_SCHEDULE_BOUNDS } from "@/lib/endpoints/schemas";
import type { PortalBranding, PortalBrandingOut } from "@/lib/portal/branding";
import { api, fieldError } from "../_lib/api";
import { useConsole } from "../_lib/providers";

// The environment's settings (GET/PATCH /api/v1/environment/settings): the retry schedule, the
// origins allowed to embed the portal, and the portal's branding. Each form PATCHes only its own
// fields. A viewer sees the same forms disabled; the server refuses their PATCH with 403 anyway.

type Settings = {
  retrySchedule: number[] | null;
  effectiveRetrySchedule: number[];
  portalBranding: PortalBrandingOut;
  portalEmbedOrigins: string[];
  portalFrameAncestors: string;
};
type Patch = { retrySchedule?: number[] | null; portalEmbedOrigins?: string[] | null; portalBranding?: PortalBranding };
type FormProps = { settings: Settings; canWrite: boolean };

function useSaveSettings() {
  const { environment } = useConsole();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: Patch) => api<Settings>("/environment/settings", { method: "PATCH", body: patch }),
    onSuccess: (s) => qc.setQueryData([environment.id, "settings"], s),
  });
}

export function SettingsView() {
  const { environment, canWrite } = useConsole();
  const settings = useQuery({ queryKey: [environment.id, "settings"], queryFn: () => api<Settings>("/environment/settings") });
  return (
    <>
      <PageHeader title="Settings" description={`Settings of ${environment.name}.`} />
      {!canWrite && (
        <div className="mb-4">
          <Notice tone="info">You are a viewer of this environment: you can read its settings but not change them.</Notice>
        </div>
      )}
      {settings.isPending && <Spinner label="Loading settings" />}
      {settings.error && <Notice tone="error">{settings.error.message}</Notice>}
      {settings.data && (
        <div className="space-y-6">
          <RetryScheduleForm settings={settings.data} canWrite={canWrite} />
          <EmbeddingForm settings={settings.data} canWrite={canWrite} />
          <BrandingForm settings={settings.data} canWrite={canWrite} />
        </div>
      )}
    </>
  );
}

/** A settings card: heading, explanation, fields (disabled for viewers), save button and outcome. */
function SettingsForm({
  id,
  title,
  intro,
  canWrite,
  saveLabel,
  saving,
  error,
  saved,
  blocked,
  onSubmit,
  children,
}: {
  id: string;
  title: string;
  intro: ReactNode;
  canWrite: boolean;
  saveLabel: string;
  saving: boolean;
  error: string | undefined;
  saved: boolean;
  blocked?: boolean;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <form
      className="max-w-2xl space-y-3 rounded-lg border border-slate-200 bg-white p-4"
      aria-labelledby={`${id}-heading`}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        if (!blocked) onSubmit();
      }}
    >
      <h2 id={`${id}-heading`} className="text-base font-semibold">
        {title}
      </h2>
      <p className="text-sm text-slate-600">{intro}</p>
      <fieldset disabled={!canWrite} className="space-y-3">
        {children}
        {canWrite && (
          <Button type="submit" variant="primary" disabled={saving || Boolean(blocked)}>
            {saveLabel}
          </Button>
        )}
      </fieldset>
      <ErrorText message={error} className="text-sm" />
      {saved && !error && (
        <p role="status" className="text-sm text-green-800">
          Saved.
        </p>
      )}
    </form>
  );
}

function RetryScheduleForm({ settings, canWrite }: FormProps) {
  const save = useSaveSettings();
  const [text, setText] = useState(scheduleText(settings.retrySchedule));
  const parsed = text.trim() ? parseRetrySchedule(text, RETRY_SCHEDULE_BOUNDS) : null;
  const problem = parsed && "error" in parsed ? parsed.error : undefined;
  return (
    <SettingsForm
      id="retry"
      title="Retry schedule"
      intro="How long Herald waits before each retry of a failed delivery, for endpoints without a schedule of their own. Applies to retries scheduled from now on."
      canWrite={canWrite}
      saveLabel="Save retry schedule"
      saving={save.isPending}
      error={save.error?.message}
      saved={save.isSuccess}
      blocked={Boolean(problem)}
      onSubmit={() => save.mutate({ retrySchedule: parsed && "delays" in parsed ? parsed.delays : null })}
    >
      <Field label="Delays between attempts" hint="e.g. 5s, 5m, 30m, 2h. Empty: the platform default." error={problem}>
        {(f) => <input id={f.id} aria-describedby={f.describedBy} aria-invalid={f.invalid} className={inputClass} value={text} onChange={(e) => setText(e.target.value)} placeholder={scheduleText(settings.effectiveRetrySchedule)} />}
      </Field>
      <p className="text-xs text-slate-600">
        In effect now: {settings.effectiveRetrySchedule.map(formatDuration).join(" → ")} ({settings.effectiveRetrySchedule.length + 1} attempts
        {settings.retrySchedule ? "" : ", the platform default"}).
      </p>
    </SettingsForm>
  );
}

function EmbeddingForm({ settings, canWrite }: FormProps) {
  const save = useSaveSettings();
  const [text, setText] = useState(settings.portalEmbedOrigins.join("\n"));
  const origins = text.split(/[\s,]+/).filter(Boolean);
  // The server names the entry (portalEmbedOrigins.<i>); show its message under the field.
  const problem = save.error ? (fieldError(save.error, "portalEmbedOrigins") ?? save.error.message) : undefined;
  return (
    <SettingsForm
      id="embedding"
      title="Portal embedding"
      intro={
        <>
          The sites that may show this environment&apos;s consumer portal in an <code>&lt;iframe&gt;</code>, in addition to the server-wide list. Portal links name their environment (<code>?env=…</code>) so the browser is told these origins; links made before this setting existed get the server-wide list only.
        </>
      }
      canWrite={canWrite}
      saveLabel="Save embedding origins"
      saving={save.isPending}
      error={undefined}
      saved={save.isSuccess}
      // Show them as stored (lowercased, no trailing slash): what browsers compare.
      onSubmit={() => save.mutate({ portalEmbedOrigins: origins }, { onSuccess: (s) => setText(s.portalEmbedOrigins.join("\n")) })}
    >
      <Field label="Origins allowed to embed the portal" hint="One per line, as scheme://host[:port], e.g. https://dashboard.example.com. Empty: the server-wide list only." error={problem}>
        {(f) => <textarea id={f.id} aria-describedby={f.describedBy} aria-invalid={f.invalid} rows={3} className={`${inputClass} font-mono`} value={text} onChange={(e) => setText(e.target.value)} placeholder="https://dashboard.example.com" />}
      </Field>
      <p className="text-xs text-slate-600">
        Sent now on this environment&apos;s portal pages: <code className="break-all">{settings.portalFrameAncestors}</code>
      </p>
    </SettingsForm>
  );
}

const THEMES = [
  ["system", "Follow the visitor's system"],
  ["light", "Light"],
  ["dark", "Dark"],
] as const;

function BrandingForm({ settings, canWrite }: FormProps) {
  const save = useSaveSettings();
  const b = settings.portalBranding;
  const [displayName, setDisplayName] = useState(b.displayName ?? "");
  const [logoUrl, setLogoUrl] = useState(b.logoUrl ?? "");
  const [accentColor, setAccentColor] = useState(b.accentColor ?? "");
  const [theme, setTheme] = useState<PortalBrandingOut["theme"]>(b.theme);
  const err = (field: string) => fieldError(save.error, field);
  const unnamed = save.error && !["displayName", "logoUrl", "accentColor", "theme"].some((f) => err(f)) ? save.error.message : undefined;
  // Empty fields remove the setting (null), so the portal falls back to its defaults.
  const orNull = (v: string) => (v.trim() === "" ? null : v.trim());
  return (
    <SettingsForm
      id="branding"
      title="Portal branding"
      intro="Your product's name, logo and colour in the consumer portal of every application of this environment. Empty fields use the portal's defaults (“Webhooks”, no logo, its own blue)."
      canWrite={canWrite}
      saveLabel="Save branding"
      saving={save.isPending}
      error={unnamed}
      saved={save.isSuccess}
      onSubmit={() => save.mutate({ portalBranding: { displayName: orNull(displayName), logoUrl: orNull(logoUrl), accentColor: orNull(accentColor), theme } })}
    >
      <Field label="Display name" hint="Shown in the portal's header and page titles, 1-60 characters." error={err("displayName")}>
        {(f) => <input id={f.id} aria-describedby={f.describedBy} aria-invalid={f.invalid} className={inputClass} value={displayName} maxLength={60} onChange={(e) => setDisplayName(e.target.value)} placeholder="Webhooks" />}
      </Field>
      <Field label="Logo URL" hint="An http(s) image URL, or a data:image/…;base64 URL up to 64 KB." error={err("logoUrl")}>
        {(f) => <input id={f.id} aria-describedby={f.describedBy} aria-invalid={f.invalid} className={inputClass} value={logoUrl} onChange={(e) => setLogoUrl(e.target.value)} placeholder="https://example.com/logo.svg" />}
      </Field>
      <Field label="Accent colour" hint="#rrggbb. Herald picks black or white text on it, whichever reads better." error={err("accentColor")}>
        {(f) => (
          <div className="flex items-center gap-2">
            <input id={f.id} aria-describedby={f.describedBy} aria-invalid={f.invalid} className={`${inputClass} max-w-40 font-mono`} value={accentColor} onChange={(e) => setAccentColor(e.target.value)} placeholder="#2563eb" />
            <input type="color" aria-label="Pick the accent colour" disabled={!canWrite} className="h-9 w-12 rounded border border-slate-300 disabled:cursor-not-allowed disabled:opacity-50" value={/^#[0-9a-f]{6}$/i.test(accentColor) ? accentColor : "#2563eb"} onChange={(e) => setAccentColor(e.target.value)} />
            {b.accentColor && (
              <span className="rounded px-2 py-1 text-xs font-medium" style={{ background: b.accentColor, color: b.accentTextColor ?? undefined }}>
                Saved accent
              </span>
            )}
          </div>
        )}
      </Field>
      <Field label="Theme" error={err("theme")}>
        {(f) => (
          <select id={f.id} aria-describedby={f.describedBy} disabled={!canWrite} className={`${inputClass} disabled:cursor-not-allowed`} value={theme} onChange={(e) => setTheme(e.target.value as PortalBrandingOut["theme"])}>
            {THEMES.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
    </SettingsForm>
  );
}
