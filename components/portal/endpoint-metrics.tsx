"use client";
import type { EndpointMetrics, MetricWindow } from "@/lib/endpoints/endpoint-metrics";
import { percent, statusCodeLabel } from "../ui/format";
import { Tabs } from "../ui/tabs";

const WINDOWS: { key: MetricWindow; label: string }[] = [
  { key: "1h", label: "1 hour" },
  { key: "24h", label: "24 hours" },
  { key: "7d", label: "7 days" },
];

const ms = (v: number | null) => (v === null ? "—" : v < 1000 ? `${v} ms` : `${(v / 1000).toFixed(1)} s`);

/** An endpoint's attempts over the chosen window: success rate, latency p50/p95, and the status codes it answered. */
export function EndpointMetricsPanel({
  metrics,
  window,
  onWindow,
  busy,
}: {
  metrics: EndpointMetrics | undefined;
  window: MetricWindow;
  onWindow: (w: MetricWindow) => void;
  busy: boolean;
}) {
  const m = metrics?.window === window ? metrics : undefined;
  const max = Math.max(1, ...(m?.statusCodes.map((c) => c.count) ?? []));
  return (
    <Tabs label="Time window" tabs={WINDOWS} selected={window} onSelect={onWindow}>
      <div aria-busy={busy || !m} className={busy ? "opacity-60" : ""}>
        <dl className="mt-3 grid grid-cols-3 gap-2 text-center">
          <div>
            <dt className="text-xs text-slate-600">Success rate</dt>
            <dd className="text-2xl font-semibold tabular-nums">{percent(m?.successRate ?? null)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-600">Latency p50</dt>
            <dd className="text-2xl font-semibold tabular-nums">{ms(m?.latencyMs.p50 ?? null)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-600">Latency p95</dt>
            <dd className="text-2xl font-semibold tabular-nums">{ms(m?.latencyMs.p95 ?? null)}</dd>
          </div>
        </dl>
        <p className="mt-1 text-center text-xs text-slate-600">
          {m ? `${m.attempts} attempt${m.attempts === 1 ? "" : "s"} (each HTTP try counts): ${m.success} succeeded, ${m.fail} failed` : "Loading…"}
        </p>
        {m && m.statusCodes.length > 0 && (
          <table className="mt-3 w-full text-sm" aria-label="Status codes answered">
            <thead className="sr-only">
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
              </tr>
            </thead>
            <tbody>
              {m.statusCodes.map((c) => (
                <tr key={c.code}>
                  <th scope="row" className="w-28 py-0.5 text-left font-mono text-xs font-normal">
                    {statusCodeLabel(c.code)}
                  </th>
                  <td className="py-0.5">
                    <span className="flex items-center gap-2">
                      <span
                        aria-hidden
                        className={`h-2 rounded ${c.code >= 200 && c.code < 300 ? "bg-green-600" : "bg-red-600"}`}
                        style={{ width: `${Math.max(4, (c.count / max) * 100)}%` }}
                      />
                      <span className="tabular-nums">{c.count}</span>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Tabs>
  );
}
