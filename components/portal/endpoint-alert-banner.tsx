import Link from "next/link";
import type { EndpointAlerts } from "@/lib/notifications/endpoint-alerts";
import { formatTime } from "../ui/format";

/**
 * Above every portal page while an endpoint is failing or disabled by Herald: which one, since
 * when, and where to act. Members who opted in got the same news by email.
 */
export function EndpointAlertBanner({ alerts }: { alerts: EndpointAlerts["data"] }) {
  if (alerts.length === 0) return null;
  const disabled = alerts.some((a) => a.kind === "disabled");
  return (
    <section
      aria-label="Endpoint alerts"
      data-testid="endpoint-alert-banner"
      className={`mb-6 rounded-md border px-4 py-3 text-sm ${disabled ? "border-red-300 bg-red-50 text-red-900" : "border-amber-300 bg-amber-50 text-amber-950"}`}
    >
      <p className="font-semibold">
        {alerts.length === 1 ? "An endpoint needs attention" : `${alerts.length} endpoints need attention`}
      </p>
      <ul className="mt-1 space-y-1">
        {alerts.map((a) => (
          <li key={a.endpointId} className="break-words">
            <span className="font-medium">{a.description || a.url}</span>{" "}
            {a.kind === "disabled" ? (
              <>
                was disabled by Herald{a.since ? ` at ${formatTime(a.since)}` : ""}
                {a.reason ? `: ${a.reason}` : ""}. Nothing is sent to it until it is enabled again.
              </>
            ) : (
              <>
                is failing{a.since ? ` since ${formatTime(a.since)}` : ""}. Herald keeps retrying; nothing is lost meanwhile.
              </>
            )}{" "}
            {/* Named apart from the endpoint's own link in the list, which carries its URL. */}
            <Link href={`/portal/endpoints/${a.endpointId}`} className="font-medium underline" aria-label={`See the endpoint: ${a.description || a.url}`}>
              See the endpoint
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
