"use client";
import { useState, type FormEvent } from "react";
import { MarkdownInline } from "../ui/markdown";
import { Button } from "../ui/button";
import { Field, inputClass } from "../ui/field";
import { formatDuration } from "../ui/format";
import { Badge } from "../ui/badge";
import { ErrorText } from "../ui/notice";

export type EndpointFormValues = {
  url: string;
  description: string;
  /** Empty = every event type. */
  eventTypes: string[];
  channels: string;
  headers: { name: string; value: string }[];
  rateLimit: string;
  retryMode: "default" | "custom";
  retrySchedule: string;
  signing: "hmac_sha256" | "ed25519";
};

/** The request fields whose 422 message this form shows under the field itself. */
const FIELDS_WITH_ERRORS = new Set(["url", "description", "filterTypes", "channels", "rateLimit", "throttleRate", "retrySchedule", "headers"]);

export type UrlCheck = { state: "idle" | "checking" | "ok" | "error"; message?: string };

type CatalogItem = { name: string; description: string; deprecated: boolean; archived: boolean };
type Bounds = {
  retrySchedule: { maxAttempts: number; minDelaySeconds: number; maxDelaySeconds: number };
  defaultRetrySchedule: number[];
  rateLimit: { min: number; max: number };
};

export const emptyEndpointForm: EndpointFormValues = {
  url: "",
  description: "",
  eventTypes: [],
  channels: "",
  headers: [],
  rateLimit: "",
  retryMode: "default",
  retrySchedule: "",
  signing: "hmac_sha256",
};

const UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/**
 * "5s, 5m, 2h" → seconds; otherwise a message naming the first bad entry and why
 * ("entry 3 ('5x'): not a duration …"), or what is wrong with the list as a whole.
 */
export function parseRetrySchedule(
  text: string,
  bounds: Bounds["retrySchedule"],
): { delays: number[] } | { error: string } {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0) return { error: "list at least one delay, e.g. 5s, 5m, 30m, 2h" };
  const delays: number[] = [];
  for (const [i, p] of parts.entries()) {
    const entry = `entry ${i + 1} ('${p}')`;
    const m = /^(\d+)([smhd]?)$/i.exec(p);
    if (!m) return { error: `${entry}: not a duration; use a number with s, m, h or d (e.g. 30s, 5m, 2h)` };
    const seconds = Number(m[1]) * UNIT[(m[2] || "s").toLowerCase()]!;
    if (seconds < bounds.minDelaySeconds || seconds > bounds.maxDelaySeconds)
      return {
        error: `${entry}: must be between ${formatDuration(bounds.minDelaySeconds)} and ${formatDuration(bounds.maxDelaySeconds)}`,
      };
    delays.push(seconds);
  }
  if (delays.length > bounds.maxAttempts - 1)
    return { error: `${delays.length} delays: at most ${bounds.maxAttempts - 1} retries (${bounds.maxAttempts} attempts in all)` };
  return { delays };
}

export function scheduleText(delays: number[] | null): string {
  return (delays ?? [])
    .map((s) =>
      s % 86400 === 0 ? `${s / 86400}d` : s % 3600 === 0 ? `${s / 3600}h` : s % 60 === 0 ? `${s / 60}m` : `${s}s`,
    )
    .join(", ");
}

function channelList(text: string) {
  return text
    .split(/[\s,]+/)
    .map((c) => c.trim())
    .filter(Boolean);
}

/** The request body for POST (create) or PATCH (edit) from the form's values; null fields mean "all"/"default". */
export function endpointBody(v: EndpointFormValues, mode: "create" | "edit", bounds: Bounds): Record<string, unknown> {
  const channels = channelList(v.channels);
  const schedule = v.retryMode === "custom" ? parseRetrySchedule(v.retrySchedule, bounds.retrySchedule) : null;
  const body: Record<string, unknown> = {
    url: v.url.trim(),
    description: v.description,
    filterTypes: v.eventTypes.length > 0 ? v.eventTypes : null,
    channels: channels.length > 0 ? channels : null,
    rateLimit: v.rateLimit.trim() === "" ? (mode === "edit" ? 0 : null) : Number(v.rateLimit),
    retrySchedule: schedule && "delays" in schedule ? schedule.delays : [],
  };
  if (mode === "create") {
    body.signing = v.signing;
    const headers = Object.fromEntries(
      v.headers.filter((h) => h.name.trim() !== "").map((h) => [h.name.trim(), h.value]),
    );
    if (Object.keys(headers).length > 0) body.headers = headers;
  }
  return body;
}

export function EndpointForm({
  mode,
  initial,
  catalog,
  bounds,
  urlCheck,
  onUrlChange,
  onSubmit,
  onCancel,
  submitting,
  fieldErrors,
  formError,
}: {
  mode: "create" | "edit";
  initial: EndpointFormValues;
  catalog: CatalogItem[];
  bounds: Bounds;
  urlCheck: UrlCheck;
  onUrlChange: (url: string) => void;
  onSubmit: (values: EndpointFormValues) => void;
  onCancel: () => void;
  submitting: boolean;
  fieldErrors: Record<string, string | undefined>;
  formError?: string | undefined;
}) {
  const [v, setV] = useState<EndpointFormValues>(initial);
  const [typeFilter, setTypeFilter] = useState("");
  // The schedule is checked from the first time the reader leaves the field (or submits), not
  // while they have not typed yet: an empty custom schedule blocks the submit without a scolding.
  const [scheduleTouched, setScheduleTouched] = useState(false);
  const schedule = v.retryMode === "custom" ? parseRetrySchedule(v.retrySchedule, bounds.retrySchedule) : null;
  const scheduleError = schedule && "error" in schedule ? schedule.error : undefined;
  const rate = v.rateLimit.trim() === "" ? null : Number(v.rateLimit);
  const rateError =
    rate !== null && (!Number.isInteger(rate) || rate < bounds.rateLimit.min || rate > bounds.rateLimit.max)
      ? `a whole number from ${bounds.rateLimit.min} to ${bounds.rateLimit.max}, or empty for no limit`
      : undefined;
  const urlError = urlCheck.state === "error" ? urlCheck.message : fieldErrors.url;
  // The banner only for what no field shows: a message under its field is not said twice.
  const named = Object.keys(fieldErrors);
  const banner = named.length > 0 && named.every((k) => FIELDS_WITH_ERRORS.has(k)) ? undefined : formError;
  const blocked = Boolean(scheduleError || rateError || urlCheck.state === "error" || v.url.trim() === "");
  const visibleTypes = catalog.filter(
    (t) => (!t.archived || v.eventTypes.includes(t.name)) && t.name.toLowerCase().includes(typeFilter.toLowerCase()),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setScheduleTouched(true);
    if (!blocked) onSubmit(v);
  };
  const toggleType = (name: string) =>
    setV((s) => ({
      ...s,
      eventTypes: s.eventTypes.includes(name) ? s.eventTypes.filter((n) => n !== name) : [...s.eventTypes, name],
    }));

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-6 rounded-lg border border-slate-200 bg-white p-5"
      aria-label={mode === "create" ? "New endpoint" : "Edit endpoint"}
    >
      {banner && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
          {banner}
        </p>
      )}
      <Field
        label="Endpoint URL"
        hint={
          urlCheck.state === "checking"
            ? "Checking…"
            : urlCheck.state === "ok"
              ? "✓ Herald can deliver to this URL."
              : "An https:// URL on the public internet. Private and internal addresses are refused."
        }
        error={urlError}
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            name="url"
            type="url"
            inputMode="url"
            autoComplete="off"
            required
            placeholder="https://example.com/webhooks/herald"
            className={`${inputClass} font-mono`}
            value={v.url}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(e) => {
              setV((s) => ({ ...s, url: e.target.value }));
              onUrlChange(e.target.value);
            }}
          />
        )}
      </Field>

      <Field label="Description" error={fieldErrors.description}>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            name="description"
            className={inputClass}
            value={v.description}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(e) => setV((s) => ({ ...s, description: e.target.value }))}
          />
        )}
      </Field>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Event types</legend>
        <p className="text-xs text-slate-500">
          {v.eventTypes.length === 0
            ? "None selected: this endpoint receives every event type, including ones added later."
            : `${v.eventTypes.length} selected: only these are sent.`}
        </p>
        {catalog.length > 8 && (
          <input
            aria-label="Filter event types"
            placeholder="Filter event types"
            className={`${inputClass} max-w-xs`}
            value={typeFilter}
            onChange={(e) => setTypeFilter(e.target.value)}
          />
        )}
        <div className="grid max-h-64 grid-cols-1 gap-1 overflow-y-auto rounded-md border border-slate-200 p-2 sm:grid-cols-2">
          {visibleTypes.map((t) => (
            <label key={t.name} className="flex min-w-0 items-start gap-2 rounded px-2 py-1 text-sm hover:bg-slate-50">
              <input
                type="checkbox"
                className="mt-0.5"
                checked={v.eventTypes.includes(t.name)}
                onChange={() => toggleType(t.name)}
              />
              <span className="min-w-0">
                <span className="break-all font-mono text-xs">{t.name}</span>{" "}
                {t.deprecated && <Badge tone="amber">deprecated</Badge>} {t.archived && <Badge>archived</Badge>}
                <span className="block truncate text-xs text-slate-500">
                  <MarkdownInline text={t.description} links={false} />
                </span>
              </span>
            </label>
          ))}
          {visibleTypes.length === 0 && <p className="text-sm text-slate-500">No event types match.</p>}
        </div>
        <ErrorText message={fieldErrors.filterTypes} className="text-xs font-medium" />
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Channels"
          hint="Optional, comma-separated. With channels, only messages on one of them are sent."
          error={fieldErrors.channels}
        >
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              name="channels"
              className={inputClass}
              placeholder="e.g. project_123, eu"
              value={v.channels}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setV((s) => ({ ...s, channels: e.target.value }))}
            />
          )}
        </Field>
        <Field
          label="Rate limit (requests per second)"
          hint="Empty: no limit."
          error={rateError ?? fieldErrors.rateLimit ?? fieldErrors.throttleRate}
        >
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              name="rateLimit"
              inputMode="numeric"
              className={inputClass}
              value={v.rateLimit}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setV((s) => ({ ...s, rateLimit: e.target.value }))}
            />
          )}
        </Field>
      </div>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Retry policy</legend>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="radio"
            name="retryMode"
            checked={v.retryMode === "default"}
            onChange={() => setV((s) => ({ ...s, retryMode: "default" }))}
          />
          The default schedule
          <span className="text-xs text-slate-500">
            ({bounds.defaultRetrySchedule.length + 1} attempts over{" "}
            {formatDuration(bounds.defaultRetrySchedule.reduce((a, b) => a + b, 0))}:{" "}
            {scheduleText(bounds.defaultRetrySchedule)})
          </span>
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="radio"
            name="retryMode"
            checked={v.retryMode === "custom"}
            onChange={() => setV((s) => ({ ...s, retryMode: "custom" }))}
          />
          A custom schedule
        </label>
        {v.retryMode === "custom" && (
          <Field
            label="Delays before each retry"
            hint={
              schedule && "delays" in schedule
                ? `${schedule.delays.length} retries over ${formatDuration(schedule.delays.reduce((a, b) => a + b, 0))}. Allowed: up to ${bounds.retrySchedule.maxAttempts - 1} retries, each ${formatDuration(bounds.retrySchedule.minDelaySeconds)}–${formatDuration(bounds.retrySchedule.maxDelaySeconds)}.`
                : `Up to ${bounds.retrySchedule.maxAttempts - 1} retries, each ${formatDuration(bounds.retrySchedule.minDelaySeconds)}–${formatDuration(bounds.retrySchedule.maxDelaySeconds)}, e.g. 5s, 5m, 30m, 2h, 5h.`
            }
            error={(scheduleTouched ? scheduleError : undefined) ?? fieldErrors.retrySchedule}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                name="retrySchedule"
                className={`${inputClass} font-mono`}
                placeholder="5s, 5m, 30m, 2h, 5h, 10h"
                value={v.retrySchedule}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onChange={(e) => setV((s) => ({ ...s, retrySchedule: e.target.value }))}
                onBlur={() => setScheduleTouched(true)}
              />
            )}
          </Field>
        )}
      </fieldset>

      {mode === "create" && (
        <>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-800">Signing</legend>
            <label className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name="signing"
                className="mt-1"
                checked={v.signing === "hmac_sha256"}
                onChange={() => setV((s) => ({ ...s, signing: "hmac_sha256" }))}
              />
              <span>
                Symmetric (HMAC-SHA256)
                <span className="block text-xs text-slate-500">
                  You and Herald share a secret (whsec_…). Works with every Standard Webhooks library.
                </span>
              </span>
            </label>
            <label className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name="signing"
                className="mt-1"
                checked={v.signing === "ed25519"}
                onChange={() => setV((s) => ({ ...s, signing: "ed25519" }))}
              />
              <span>
                Asymmetric (ed25519)
                <span className="block text-xs text-slate-500">
                  Herald keeps the private key; you verify with a public key (whpk_…) and never hold a secret.
                </span>
              </span>
            </label>
          </fieldset>

          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-800">Custom headers</legend>
            <p className="text-xs text-slate-500">
              Sent with every delivery, e.g. an Authorization header your server expects. Values are stored encrypted.
            </p>
            {v.headers.map((h, i) => (
              <div key={i} className="flex flex-wrap gap-2">
                <input
                  aria-label={`Header ${i + 1} name`}
                  placeholder="X-Header-Name"
                  className={`${inputClass} max-w-xs font-mono`}
                  value={h.name}
                  onChange={(e) =>
                    setV((s) => ({
                      ...s,
                      headers: s.headers.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)),
                    }))
                  }
                />
                {/* A least width: in a narrow column the value wraps onto its own line instead of shrinking to a sliver. */}
                <input
                  aria-label={`Header ${i + 1} value`}
                  placeholder="value"
                  className={`${inputClass} min-w-56 flex-1 font-mono`}
                  value={h.value}
                  onChange={(e) =>
                    setV((s) => ({
                      ...s,
                      headers: s.headers.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)),
                    }))
                  }
                />
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove header ${i + 1}`}
                  onClick={() => setV((s) => ({ ...s, headers: s.headers.filter((_, j) => j !== i) }))}
                >
                  Remove
                </Button>
              </div>
            ))}
            <Button size="sm" onClick={() => setV((s) => ({ ...s, headers: [...s.headers, { name: "", value: "" }] }))}>
              Add header
            </Button>
            <ErrorText message={fieldErrors.headers} className="text-xs font-medium" />
          </fieldset>
        </>
      )}

      <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-4">
        <Button type="submit" variant="primary" disabled={submitting || blocked}>
          {submitting ? "Saving…" : mode === "create" ? "Create endpoint" : "Save changes"}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
