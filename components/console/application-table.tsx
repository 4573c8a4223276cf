import Link from "next/link";
import type { ApplicationSummary } from "@/lib/applications/application-summaries";
import { formatTime, percent } from "../ui/format";

function rateClass(rate: number | null) {
  if (rate === null) return "text-slate-500";
  if (rate >= 0.99) return "text-green-800";
  if (rate >= 0.9) return "text-amber-800";
  return "text-red-800";
}

/** "79 delivered · 2 dead" (24 h), then what is in trouble now: "160 failing · 3 held". */
function Deliveries({ a }: { a: ApplicationSummary }) {
  const { succeeded, failed } = a.last24h;
  const { failing, held, capped } = a.unfinished;
  // Counted up to a cap (UNFINISHED_COUNTED): then the figures are lower bounds.
  const more = capped ? "+" : "";
  return (
    <>
      <span className="block text-slate-700">
        {succeeded} delivered{failed > 0 && ` · ${failed} dead`}
      </span>
      {(failing > 0 || held > 0) && (
        <span className="block font-medium text-red-800">
          {[failing > 0 && `${failing}${more} failing`, held > 0 && `${held}${more} held`].filter(Boolean).join(" · ")}
        </span>
      )}
    </>
  );
}

/**
 * Applications with their last 24 hours and what is failing now; each name opens the application's
 * page. The rate is of the finished deliveries, and says so: failing ones are not in it yet.
 */
export function ApplicationTable({ rows, busy }: { rows: ApplicationSummary[]; busy: boolean }) {
  return (
    <div className={`overflow-x-auto rounded-lg border border-slate-200 bg-white ${busy ? "opacity-60" : ""}`} aria-busy={busy}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Applications</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-500">
          <tr>
            <th scope="col" className="px-3 py-2">Name</th>
            <th scope="col" className="px-3 py-2">uid</th>
            <th scope="col" className="px-3 py-2">Created</th>
            <th scope="col" className="px-3 py-2 text-right">
              Deliveries, 24 h<span className="block normal-case">failing and held: now</span>
            </th>
            <th scope="col" className="px-3 py-2 text-right">Success rate, 24 h</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((a) => (
            <tr key={a.id}>
              <td className="px-3 py-2">
                <Link href={`/console/applications/${a.id}`} className="font-medium text-blue-800 hover:underline">
                  {a.name}
                </Link>
                <span className="block font-mono text-xs text-slate-500">{a.id}</span>
              </td>
              <td className="px-3 py-2 font-mono text-xs text-slate-700">{a.uid ?? "—"}</td>
              <td className="px-3 py-2 text-xs text-slate-600">{formatTime(a.createdAt)}</td>
              <td className="px-3 py-2 text-right tabular-nums">
                <Deliveries a={a} />
              </td>
              <td className="px-3 py-2 text-right tabular-nums">
                <span className={`block font-medium ${rateClass(a.last24h.successRate)}`}>{percent(a.last24h.successRate)}</span>
                {a.last24h.successRate !== null && (
                  <span className="block text-xs text-slate-500">of {a.last24h.succeeded + a.last24h.failed} finished</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
