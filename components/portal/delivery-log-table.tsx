import type { DeliveryLogRow } from "@/lib/portal/delivery-logs";
import { statusCodeLabel } from "../ui/format";
import { RelativeTime } from "../ui/relative-time";
import { DeliveryStatusBadge } from "./delivery-status";
import { WaitReasonText } from "./wait-reason";

type Props = { rows: DeliveryLogRow[]; onOpen: (id: string) => void; busy?: boolean };

const inspectLabel = (r: DeliveryLogRow) => `Inspect delivery of ${r.eventType} ${r.msgId} to ${r.endpointUrl ?? r.endpointId}`;

/**
 * The delivery log: a table from the sm breakpoint up, a list of cards on a phone (where seven
 * columns would push Status and Inspect off-screen). Only one of the two is displayed.
 */
export function DeliveryLogTable(props: Props) {
  return (
    <>
      <div className="hidden sm:block">
        <LogTable {...props} />
      </div>
      <div className="sm:hidden">
        <LogCards {...props} />
      </div>
    </>
  );
}

function LogCards({ rows, onOpen, busy = false }: Props) {
  return (
    <ul aria-label="Deliveries, newest first" aria-busy={busy} className={`space-y-2 transition-opacity ${busy ? "opacity-60" : ""}`}>
      {rows.map((r) => (
        <li key={r.id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
          <div className="flex items-start justify-between gap-2">
            <span className="min-w-0 break-all font-mono text-xs">{r.eventType}</span>
            <DeliveryStatusBadge status={r.status} />
          </div>
          <p className="mt-1 break-all font-mono text-[11px] text-slate-600">{r.msgId}{r.eventId ? ` · ${r.eventId}` : ""}</p>
          {r.replayOf && <p className="text-[11px] text-purple-700">replay of {r.replayOf}</p>}
          {r.waiting && (
            <p className="mt-1 text-xs text-slate-700">
              <WaitReasonText reason={r.waiting} />
            </p>
          )}
          <p className="mt-1 truncate font-mono text-xs text-slate-700" title={r.endpointUrl ?? ""}>{r.endpointUrl}</p>
          <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-xs text-slate-600">
            <span>
              <RelativeTime iso={r.createdAt} /> · {r.attemptCount} attempt{r.attemptCount === 1 ? "" : "s"}
              {r.attemptCount > 0 ? ` · ${statusCodeLabel(r.lastStatusCode)}` : ""}
            </span>
            <button
              type="button"
              className="rounded border border-slate-300 px-2.5 py-1 text-xs font-medium text-blue-800 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-600"
              aria-label={inspectLabel(r)}
              onClick={() => onOpen(r.id)}
            >
              Inspect
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}

function LogTable({ rows, onOpen, busy = false }: Props) {
  return (
    <div aria-busy={busy} className={`relative overflow-x-auto rounded-lg border border-slate-200 bg-white transition-opacity ${busy ? "opacity-60" : ""}`}>
      <table className="w-full min-w-[48rem] text-left text-sm">
        <caption className="sr-only">Deliveries, newest first</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">Time</th>
            <th scope="col" className="px-3 py-2 font-medium">Event</th>
            <th scope="col" className="px-3 py-2 font-medium">Endpoint</th>
            <th scope="col" className="px-3 py-2 font-medium">Status</th>
            <th scope="col" className="px-3 py-2 font-medium">Attempts</th>
            <th scope="col" className="px-3 py-2 font-medium">Last response</th>
            <th scope="col" className="px-3 py-2"><span className="sr-only">Inspect</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.id} className="cursor-pointer hover:bg-blue-50/50" onClick={() => onOpen(r.id)}>
              <td className="whitespace-nowrap px-3 py-2 text-slate-700">
                <RelativeTime iso={r.createdAt} />
              </td>
              <td className="px-3 py-2">
                <span className="font-mono text-xs">{r.eventType}</span>
                <span className="block font-mono text-[11px] text-slate-500">{r.msgId}{r.eventId ? ` · ${r.eventId}` : ""}</span>
                {r.replayOf && <span className="block text-[11px] text-purple-700">replay of {r.replayOf}</span>}
              </td>
              <td className="max-w-[16rem] truncate px-3 py-2 font-mono text-xs text-slate-700" title={r.endpointUrl ?? ""}>
                {r.endpointUrl}
              </td>
              <td className="px-3 py-2">
                <DeliveryStatusBadge status={r.status} />
                {r.waiting && (
                  <span className="block max-w-[18rem] text-[11px] text-slate-600" data-testid="wait-reason">
                    <WaitReasonText reason={r.waiting} />
                  </span>
                )}
              </td>
              <td className="px-3 py-2 tabular-nums">{r.attemptCount}</td>
              <td className="px-3 py-2 tabular-nums">{r.attemptCount > 0 ? statusCodeLabel(r.lastStatusCode) : "—"}</td>
              <td className="px-3 py-2 text-right">
                <button
                  type="button"
                  className="rounded px-2 py-1 text-xs font-medium text-blue-800 hover:bg-blue-100 focus-visible:outline-2 focus-visible:outline-blue-600"
                  aria-label={inspectLabel(r)}
                  onClick={(e) => {
                    e.stopPropagation();
                    onOpen(r.id);
                  }}
                >
                  Inspect
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
