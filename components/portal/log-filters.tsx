"use client";
import { useState } from "react";
import { LOG_STATUSES } from "@/lib/portal/delivery-status";
import { Button } from "../ui/button";
import { inputClass } from "../ui/field";
import { DELIVERY_STATUS } from "./delivery-status";

export type LogFilterValues = {
  endpoint?: string;
  eventType?: string;
  /** One status or several, comma-separated (a Failures group: dead_lettered,failed). */
  status?: string;
  /** The last response's HTTP status (0: no answer), set by a Failures group's link. */
  statusCode?: string;
  after?: string;
  before?: string;
  search?: string;
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

/** Filters of the delivery log: endpoint, event type, status, time range, and search by message or event id. */
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
  const [search, setSearch] = useState(values.search ?? "");
  const set = (patch: Partial<LogFilterValues>) => onChange({ ...values, ...patch });
  const select =
    "rounded-md border border-slate-300 bg-white px-2 py-2 text-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30";
  return (
    <div
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
      role="search"
      aria-label="Filter deliveries"
    >
      <form
        className="flex flex-wrap gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          set({ search: search.trim() || undefined });
        }}
      >
        <label className="sr-only" htmlFor="log-search">
          Message id or event id
        </label>
        <input
          id="log-search"
          className={`${inputClass} min-w-0 flex-1 font-mono`}
          placeholder="Search by message id (msg_…) or event id"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <Button type="submit">Search</Button>
        {values.search && (
          <Button
            variant="ghost"
            onClick={() => {
              setSearch("");
              set({ search: undefined });
            }}
          >
            Clear search
          </Button>
        )}
      </form>
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
        <label className="space-y-1 text-sm">
          <span className="block font-medium text-slate-700">Event type</span>
          <select
            className={`${select} w-full`}
            value={values.eventType ?? ""}
            onChange={(e) => set({ eventType: e.target.value || undefined })}
          >
            <option value="">All event types</option>
            {eventTypes.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label className="space-y-1 text-sm">
          <span className="block font-medium text-slate-700">Status</span>
          <select
            className={`${select} w-full`}
            value={values.status ?? ""}
            onChange={(e) => set({ status: e.target.value || undefined })}
          >
            <option value="">Any status</option>
            {values.status?.includes(",") && (
              <option value={values.status}>{values.status.split(",").map((x) => DELIVERY_STATUS[x]?.label ?? x).join(" or ")}</option>
            )}
            {LOG_STATUSES.map((s) => (
              <option key={s} value={s}>
                {DELIVERY_STATUS[s]!.label}
              </option>
            ))}
          </select>
        </label>
        <label className="space-y-1 text-sm">
          <span className="block font-medium text-slate-700">From</span>
          <input
            type="datetime-local"
            className={`${select} w-full`}
            value={toLocal(values.after)}
            onChange={(e) => set({ after: fromLocal(e.target.value) })}
          />
        </label>
        <label className="space-y-1 text-sm">
          <span className="block font-medium text-slate-700">Until</span>
          <input
            type="datetime-local"
            className={`${select} w-full`}
            value={toLocal(values.before)}
            onChange={(e) => set({ before: fromLocal(e.target.value) })}
          />
        </label>
      </div>
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
        <Button
          size="sm"
          onClick={() => {
            setSearch("");
            onChange({});
          }}
        >
          Reset filters
        </Button>
      </div>
    </div>
  );
}
