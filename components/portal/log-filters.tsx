"use client";
import { useState } from "react";
import { LOG_STATUSES } from "@/lib/portal/delivery-status";
import { Button } from "../ui/button";
import { inputClass } from "../ui/field";
import { MultiSelect } from "../ui/multi-select";
import { DELIVERY_STATUS } from "./delivery-status";

export type LogFilterValues = {
  endpoint?: string;
  /** One event type or several, comma-separated. */
  eventType?: string;
  /** One status or several, comma-separated (a Failures group: dead_lettered,failed). */
  status?: string;
  /** The last response's HTTP status (0: no answer), set by a Failures group's link. */
  statusCode?: string;
  after?: string;
  before?: string;
  search?: string;
  /** Text inside the payload (searched over 7 days at most). */
  payload?: string;
};

const PRESETS = [
  { label: "Last hour", ms: 3600_000 },
  { label: "Last 24 h", ms: 24 * 3600_000 },
  { label: "Last 7 days", ms: 7 * 24 * 3600_000 },
];

/** ISO → the value of a datetime-local input (local time), and back. */
const toLocal = (iso?: string) => {
  if (!iso) return "";
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocal = (v: string) => (v ? new Date(v).toISOString() : undefined);

/** A comma-separated URL value as a list, and back (undefined for none). */
const list = (v?: string) => (v ? v.split(",").filter(Boolean) : []);
const joined = (v: string[]) => (v.length ? v.join(",") : undefined);

/** Filters of the delivery log: endpoint, event types, statuses, time range, and search by message or event id prefix. */
export function LogFilters({
  values,
  endpoints,
  eventTypes,
  onChange,
}: {
  values: LogFilterValues;
  endpoints: { id: string; url: string; description: string }[];
  eventTypes: string[];
  onChange: (next: LogFilterValues) => void;
}) {
  const set = (patch: Partial<LogFilterValues>) => onChange({ ...values, ...patch });
  // The API refuses such a range too (a 422); said here in the fields' own words.
  const backwards = Boolean(values.after && values.before && values.after >= values.before);
  const select =
    "rounded-md border border-slate-300 bg-white px-2 py-2 text-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30";
  return (
    <div
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
      role="search"
      aria-label="Filter deliveries"
    >
      <SearchBox
        id="log-search"
        label="Message id or event id (or the start of one)"
        placeholder="Message id (msg_…) or event id, or the start of one"
        submitLabel="Search"
        clearLabel="Clear search"
        mono
        value={values.search}
        onSearch={(v) => set({ search: v })}
      />
      <SearchBox
        id="log-payload"
        label="Text in the payload"
        placeholder="Text in the payload, e.g. ord_1234 (3 characters or more)"
        submitLabel="Search payloads"
        clearLabel="Clear payload search"
        minLength={3}
        hint={values.after || values.before ? "Searches the time range below (7 days at most)." : "Searches the last 7 days; set a time range below to search another week."}
        value={values.payload}
        onSearch={(v) => set({ payload: v })}
      />
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <label className="space-y-1 text-sm">
          <span className="block font-medium text-slate-700">Endpoint</span>
          <select
            className={`${select} w-full`}
            value={values.endpoint ?? ""}
            onChange={(e) => set({ endpoint: e.target.value || undefined })}
          >
            <option value="">All endpoints</option>
            {endpoints.map((ep) => (
              <option key={ep.id} value={ep.id}>
                {ep.description ? `${ep.description} — ${ep.url}` : ep.url}
              </option>
            ))}
          </select>
        </label>
        <MultiSelect
          label="Event type"
          anyLabel="All event types"
          options={eventTypes.map((t) => ({ value: t, label: t }))}
          selected={list(values.eventType)}
          onChange={(v) => set({ eventType: joined(v) })}
        />
        <MultiSelect
          label="Status"
          anyLabel="Any status"
          options={LOG_STATUSES.map((st) => ({ value: st, label: DELIVERY_STATUS[st]!.label }))}
          selected={list(values.status)}
          onChange={(v) => set({ status: joined(v) })}
        />
        <label className="space-y-1 text-sm">
          <span className="block font-medium text-slate-700">From</span>
          <input
            type="datetime-local"
            className={`${select} w-full`}
            value={toLocal(values.after)}
            max={toLocal(values.before) || undefined}
            aria-invalid={backwards || undefined}
            aria-describedby={backwards ? "log-range-problem" : undefined}
            onChange={(e) => set({ after: fromLocal(e.target.value) })}
          />
        </label>
        <label className="space-y-1 text-sm">
          <span className="block font-medium text-slate-700">Until</span>
          <input
            type="datetime-local"
            className={`${select} w-full`}
            value={toLocal(values.before)}
            min={toLocal(values.after) || undefined}
            onChange={(e) => set({ before: fromLocal(e.target.value) })}
          />
        </label>
      </div>
      {backwards && (
        <p id="log-range-problem" role="alert" className="text-sm text-red-700">
          “From” must be before “Until”: no delivery can match this range. Change one of them.
        </p>
      )}
      {values.statusCode !== undefined && (
        <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="status-code-filter">
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-slate-800">
            Last response: {values.statusCode === "0" ? "no HTTP answer" : values.statusCode}
          </span>
          <Button size="sm" variant="ghost" onClick={() => set({ statusCode: undefined })} aria-label="Remove the last-response filter">
            Remove
          </Button>
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-slate-600">Time range:</span>
        {PRESETS.map((p) => (
          <Button
            key={p.label}
            size="sm"
            variant="ghost"
            onClick={() => set({ after: new Date(Date.now() - p.ms).toISOString(), before: undefined })}
          >
            {p.label}
          </Button>
        ))}
        <Button size="sm" variant="ghost" onClick={() => set({ after: undefined, before: undefined })}>
          All time
        </Button>
        <span className="flex-1" />
        <Button size="sm" onClick={() => onChange({})}>
          Reset filters
        </Button>
      </div>
    </div>
  );
}

/** One search field: typed freely, applied on submit (Enter or the button), cleared with its own button. */
function SearchBox(props: {
  id: string;
  label: string;
  placeholder: string;
  submitLabel: string;
  clearLabel: string;
  value: string | undefined;
  onSearch: (v: string | undefined) => void;
  mono?: boolean;
  minLength?: number;
  hint?: string;
}) {
  const [text, setText] = useState(props.value ?? "");
  const [error, setError] = useState<string | null>(null);
  const described = [props.hint ? `${props.id}-hint` : null, error ? `${props.id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <form
      className="space-y-1"
      onSubmit={(e) => {
        e.preventDefault();
        const v = text.trim();
        // The server refuses shorter terms too (422); saying it here saves the round trip.
        if (v && props.minLength && v.length < props.minLength) return setError(`Type at least ${props.minLength} characters.`);
        setError(null);
        props.onSearch(v || undefined);
      }}
    >
      <div className="flex flex-wrap gap-2">
        <label className="sr-only" htmlFor={props.id}>
          {props.label}
        </label>
        <input
          id={props.id}
          className={`${inputClass} min-w-0 flex-1 ${props.mono ? "font-mono" : ""}`}
          placeholder={props.placeholder}
          value={text}
          aria-invalid={Boolean(error)}
          aria-describedby={described}
          onChange={(e) => setText(e.target.value)}
        />
        <Button type="submit">{props.submitLabel}</Button>
        {props.value && (
          <Button
            variant="ghost"
            onClick={() => {
              setText("");
              setError(null);
              props.onSearch(undefined);
            }}
          >
            {props.clearLabel}
          </Button>
        )}
      </div>
      {props.hint && (
        <p id={`${props.id}-hint`} className="text-xs text-slate-600">
          {props.hint}
        </p>
      )}
      {error && (
        <p id={`${props.id}-error`} className="text-xs font-medium text-red-700" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
