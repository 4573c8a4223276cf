import Link from "next/link";
import { circuitPhase } from "@/lib/delivery/circuit-breaker";
import type { FailureGroups } from "@/lib/portal/failure-groups";
import { Button } from "../ui/button";
import { statusCodeLabel } from "../ui/format";
import { RelativeTime } from "../ui/relative-time";
import { EndpointState } from "./endpoint-state";
import { When } from "./wait-reason";

type Group = FailureGroups["data"][number];
type Held = FailureGroups["held"][number];

// Bulk retry (lib/tasks/kinds/retry-dead-letters.ts) re-attempts dead-lettered deliveries only:
// deliveries still retrying keep their schedule, held ones wait for the circuit. Where the button
// is missing or leaves some out, one line says why, so nobody expects it to do more.
const RETRY_ALL_SCOPE = "Retry all applies to deliveries that gave up";

/** Deliveries held behind an open circuit, per endpoint: not tried yet, waiting for the next probe. */
export function HeldDeliveries({ held, canRetry }: { held: Held[]; canRetry: boolean }) {
  return (
    <ul className="mb-3 space-y-3" aria-label="Held behind an open circuit">
      {held.map((h) => (
        <li key={h.endpointId} className="rounded-lg border border-amber-300 bg-amber-50 p-4">
          <div className="flex flex-col gap-3 md:flex-row md:items-start md:justify-between">
            <div className="min-w-0 space-y-1">
              <p className="text-lg font-semibold text-amber-900">Held behind an open circuit</p>
              <p className="truncate font-mono text-xs text-slate-700" title={h.endpoint.url}>
                {h.endpoint.url}
              </p>
              <EndpointState endpoint={h.endpoint} />
              <p className="text-xs text-slate-700">
                {/* Due counts as probing (lib/delivery/circuit-breaker.ts): never "next probe at … (6 seconds ago)". */}
                {circuitPhase(h.endpoint.circuitState, h.nextProbeAt, Date.now()) === "probing" ? (
                  <>Probe due: the next delivery goes as a test; these follow if it succeeds.</>
                ) : (
                  <>
                    Not tried yet: they wait for the circuit&apos;s next probe at <When iso={h.nextProbeAt} /> and go out once it succeeds.
                  </>
                )}
              </p>
              {canRetry && <p className="text-xs text-slate-600">{RETRY_ALL_SCOPE}; these have not been tried yet.</p>}
            </div>
            <dl className="flex shrink-0 gap-4 text-sm">
              <div>
                <dt className="text-xs text-slate-500">Held</dt>
                <dd className="text-right text-lg font-semibold tabular-nums">
                  {h.held}
                  {h.heldCapped && "+"}
                </dd>
              </div>
            </dl>
          </div>
        </li>
      ))}
    </ul>
  );
}

function codeMeaning(code: number) {
  if (code === 0) return "no HTTP answer (timeout, refused, DNS or TLS error)";
  if (code === 429) return "rate limited by your server";
  if (code >= 500) return "your server errored";
  if (code === 410) return "gone: the URL no longer exists";
  if (code >= 400) return "rejected by your server (not retried)";
  return "";
}

/** Failures grouped by endpoint and status code: incidents to look into, with "retry all" per group. */
export function FailureGroupsTable({
  groups,
  logsHref,
  canRetry,
  onRetryAll,
}: {
  groups: Group[];
  logsHref: (g: Group) => string;
  canRetry: boolean;
  onRetryAll: (g: Group) => void;
}) {
  return (
    <ul className="space-y-3" aria-label="Failure groups">
      {groups.map((g) => (
        <li key={`${g.endpointId}-${g.statusCode}`} className="rounded-lg border border-slate-200 bg-white p-4">
          <div className="flex flex-col gap-3 md:flex-row md:items-start md:justify-between">
            <div className="min-w-0 space-y-1">
              <p className="flex flex-wrap items-baseline gap-2">
                <span className="text-lg font-semibold tabular-nums text-red-800">{statusCodeLabel(g.statusCode)}</span>
                <span className="text-sm text-slate-600">{codeMeaning(g.statusCode)}</span>
              </p>
              <p className="truncate font-mono text-xs text-slate-700" title={g.endpoint?.url}>
                {g.endpoint?.url ?? g.endpointId}
              </p>
              {g.endpoint && <EndpointState endpoint={g.endpoint} />}
              <p className="text-xs text-slate-600">
                First seen <RelativeTime iso={g.firstSeen} /> · last seen{" "}
                <RelativeTime iso={g.lastSeen} />
              </p>
            </div>
            <div className="flex shrink-0 flex-wrap items-center gap-4">
              <dl className="flex gap-4 text-sm">
                <div>
                  <dt className="text-xs text-slate-500">Dead-lettered</dt>
                  <dd className="text-right text-lg font-semibold tabular-nums">{g.deadLettered}</dd>
                </div>
                <div>
                  <dt className="text-xs text-slate-500">Still retrying</dt>
                  <dd className="text-right text-lg font-semibold tabular-nums">{g.failing}</dd>
                </div>
              </dl>
              <div className="flex flex-col gap-1">
                <Link href={logsHref(g)} className="text-sm text-blue-800 hover:underline">
                  View deliveries
                </Link>
                {canRetry && g.deadLettered > 0 && (
                  <Button size="sm" onClick={() => onRetryAll(g)} aria-label={`Retry all ${g.deadLettered} dead-lettered deliveries with ${statusCodeLabel(g.statusCode)} to ${g.endpoint?.url ?? g.endpointId}`}>
                    Retry all {g.deadLettered}
                  </Button>
                )}
              </div>
            </div>
          </div>
          {canRetry && g.failing > 0 && (
            <p className="mt-2 text-xs text-slate-600">
              {g.deadLettered === 0
                ? `These are still being retried on their schedule; ${RETRY_ALL_SCOPE}.`
                : `The ${g.failing} still retrying keep their schedule; ${RETRY_ALL_SCOPE}.`}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}
