"use client";
import Link from "next/link";
import { DeliveryChart, OutcomeBar } from "@/components/console/delivery-chart";
import { StatCard } from "@/components/console/stat-card";
import { PageHeader } from "@/components/portal/page-header";
import { EndpointState } from "@/components/portal/endpoint-state";
import { percent } from "@/components/ui/format";
import { EmptyState, Notice, Spinner } from "@/components/ui/notice";
import { useOverview } from "./_lib/queries";

function rateTone(rate: number | null) {
  if (rate === null) return "slate" as const;
  return rate >= 0.99 ? ("green" as const) : rate >= 0.9 ? ("amber" as const) : ("red" as const);
}

export function OverviewView() {
  const q = useOverview();
  const o = q.data;
  return (
    <>
      <PageHeader title="Overview" description="Deliveries of this environment over the last hour and day, what is waiting and what failed for good. Updates every 15 seconds." />
      {q.isPending && <Spinner label="Loading the overview" />}
      {q.error && <Notice tone="error" title="Could not load the overview">{q.error.message}</Notice>}
      {o && (
        <div className="space-y-6">
          <dl className="grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-6">
            <StatCard label="Success rate, 1 h" value={percent(o.lastHour.successRate)} tone={rateTone(o.lastHour.successRate)} hint={`${o.lastHour.succeeded} ok · ${o.lastHour.failed} dead`} />
            <StatCard label="Success rate, 24 h" value={percent(o.lastDay.successRate)} tone={rateTone(o.lastDay.successRate)} hint={`${o.lastDay.succeeded} ok · ${o.lastDay.failed} dead`} />
            <StatCard label="Deliveries, 24 h" value={o.lastDay.total} hint={`${o.lastHour.total} in the last hour`} />
            <StatCard label="Waiting" value={o.waiting} hint="pending or being sent" tone={o.waiting > 0 ? "amber" : "slate"} />
            <StatCard label="Dead letters" value={o.deadLetters} hint="failed for good (retained)" tone={o.deadLetters > 0 ? "red" : "slate"} />
            <StatCard label="Running tasks" value={o.runningTasks} hint="replays, bulk retries, exports" />
          </dl>

          <section className="grid gap-4 lg:grid-cols-3">
            <div className="rounded-lg border border-slate-200 bg-white p-4 lg:col-span-2">
              <DeliveryChart hours={o.hours} title="Deliveries per hour, last 24 hours" />
            </div>
            <div className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
              <h2 className="text-sm font-medium text-slate-800">By outcome</h2>
              {(
                [
                  ["Last hour", o.lastHour],
                  ["Last 24 hours", o.lastDay],
                ] as const
              ).map(([label, c]) => (
                <div key={label} className="space-y-1">
                  <p className="flex justify-between gap-2 text-xs text-slate-600" data-testid="outcome-counts">
                    {/* The colon and space read "Last hour: 96 ok" to a screen reader and a copy, not "Last hour96 ok". */}
                    <span>{label}:</span>{" "}
                    <span className="tabular-nums">
                      {c.succeeded} ok · {c.failed} dead · {c.pending} pending · {c.sending} sending · {c.canceled} canceled
                    </span>
                  </p>
                  <OutcomeBar counts={c} label={label} />
                </div>
              ))}
            </div>
          </section>

          <section aria-labelledby="failing-heading">
            <h2 id="failing-heading" className="mb-2 text-base font-semibold text-slate-900">
              Most failing endpoints, last 24 hours
            </h2>
            {o.topFailing.length === 0 ? (
              <EmptyState title="No failed attempts in the last 24 hours" />
            ) : (
              <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
                <table className="w-full text-left text-sm">
                  <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-500">
                    <tr>
                      <th scope="col" className="px-3 py-2">Endpoint</th>
                      <th scope="col" className="px-3 py-2">Application</th>
                      <th scope="col" className="px-3 py-2">State</th>
                      <th scope="col" className="px-3 py-2 text-right">Failed attempts</th>
                      <th scope="col" className="px-3 py-2 text-right">Success rate</th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {o.topFailing.map((f) => (
                      <tr key={f.endpointId}>
                        <td className="max-w-xs truncate px-3 py-2 font-mono text-xs" title={f.url}>
                          <Link className="text-blue-800 hover:underline" href={`/console/applications/${f.applicationId}?tab=logs&endpoint=${f.endpointId}`}>
                            {f.url}
                          </Link>
                        </td>
                        <td className="px-3 py-2">
                          <Link className="text-blue-800 hover:underline" href={`/console/applications/${f.applicationId}`}>
                            {f.applicationName}
                          </Link>
                        </td>
                        <td className="px-3 py-2">
                          <EndpointState endpoint={f} />
                        </td>
                        <td className="px-3 py-2 text-right tabular-nums text-red-800">{f.attempts.failed}</td>
                        <td className="px-3 py-2 text-right tabular-nums">{percent(f.attempts.successRate)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </div>
      )}
    </>
  );
}
