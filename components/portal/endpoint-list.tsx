import Link from "next/link";
import type { EndpointOut } from "@/lib/endpoints/serialize";
import type { EndpointHealth } from "@/lib/portal/endpoint-health";
import { percent } from "../ui/format";
import { EndpointState } from "./endpoint-state";
import { EMPTY_DAY, Sparkline } from "./sparkline";

type Health = EndpointHealth["data"][number];

function rateTone(rate: number | null) {
  if (rate === null) return "text-slate-500";
  if (rate >= 0.99) return "text-green-800";
  if (rate >= 0.9) return "text-amber-800";
  return "text-red-800";
}

/** The endpoints of the application with state and their last 24 hours. */
export function EndpointList({
  endpoints,
  health,
  hrefFor,
}: {
  endpoints: EndpointOut[];
  health: Map<string, Health>;
  hrefFor: (id: string) => string;
}) {
  return (
    <ul
      className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white"
      aria-label="Endpoints"
    >
      {endpoints.map((ep) => {
        const h = health.get(ep.id);
        const total = h ? h.success + h.fail : 0;
        return (
          <li key={ep.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0 space-y-1">
              <Link
                href={hrefFor(ep.id)}
                className="block truncate font-mono text-sm font-medium text-blue-800 hover:underline"
              >
                {ep.url}
              </Link>
              {ep.description && <p className="truncate text-sm text-slate-600">{ep.description}</p>}
              <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
                <EndpointState endpoint={ep} />
                <span>
                  {ep.filterTypes
                    ? `${ep.filterTypes.length} event type${ep.filterTypes.length === 1 ? "" : "s"}`
                    : "All event types"}
                </span>
                {ep.channels && <span>channels: {ep.channels.join(", ")}</span>}
                <span>{ep.signing === "ed25519" ? "ed25519 signing" : "HMAC signing"}</span>
              </div>
            </div>
            <div className="flex shrink-0 items-center gap-4">
              <div className="text-right">
                <p
                  className={`text-lg font-semibold tabular-nums ${rateTone(h?.successRate ?? null)}`}
                  aria-label={`Success rate, last 24 hours: ${percent(h?.successRate ?? null)}`}
                >
                  {percent(h?.successRate ?? null)}
                </p>
                <p className="text-xs text-slate-500">
                  {total > 0 ? `${total} ${total === 1 ? "attempt" : "attempts"}, 24 h` : "no attempts in 24 h"}
                </p>
              </div>
              <Sparkline
                buckets={h?.buckets ?? EMPTY_DAY}
                label={
                  h
                    ? `Last 24 hours: ${h.success} succeeded, ${h.fail} failed attempts`
                    : "No attempts in the last 24 hours"
                }
              />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
