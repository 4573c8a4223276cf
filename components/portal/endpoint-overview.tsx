import type { EndpointOut } from "@/lib/endpoints/serialize";
import { formatDuration, formatTime } from "../ui/format";
import { SigningScheme } from "./delivery-status";
import { EndpointState } from "./endpoint-state";

/** The settings of one endpoint as a description list. */
export function EndpointOverview({ endpoint }: { endpoint: EndpointOut }) {
  const rows: [string, React.ReactNode][] = [
    ["State", <EndpointState key="s" endpoint={endpoint} />],
    ["Event types", endpoint.filterTypes ? endpoint.filterTypes.join(", ") : "All event types"],
    ["Channels", endpoint.channels ? endpoint.channels.join(", ") : "All messages"],
    ["Rate limit", endpoint.rateLimit ? `${endpoint.rateLimit} per second` : "No limit"],
    [
      "Retry schedule",
      endpoint.retrySchedule ? `${endpoint.retrySchedule.map((s) => formatDuration(s)).join(" → ")} (${endpoint.retrySchedule.length} ${endpoint.retrySchedule.length === 1 ? "retry" : "retries"})` : "Platform default",
    ],
    ["Signing", <SigningScheme key="sig" signing={endpoint.signing} />],
    ["Endpoint id", <code key="id" className="font-mono text-xs">{endpoint.id}</code>],
    ["Created", formatTime(endpoint.createdAt)],
  ];
  return (
    <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[10rem_1fr]">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-medium text-slate-600">{k}</dt>
          <dd className="min-w-0 break-words text-slate-900">{v}</dd>
        </div>
      ))}
    </dl>
  );
}
