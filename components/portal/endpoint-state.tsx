import { Badge } from "../ui/badge";
import { Term } from "../ui/term";

type EndpointLike = { state: "active" | "paused" | "disabled"; disabledReason: string | null; circuitState: "closed" | "open" | "half_open" };

// Reasons the platform records (lib/delivery/after-attempt.ts) are sentences already.
const REASONS: Record<string, string> = { manual: "paused by you" };

/** Active / Paused / Disabled (with the reason) and the circuit breaker when it is not closed. */
export function EndpointState({ endpoint }: { endpoint: EndpointLike }) {
  const reason = endpoint.disabledReason ? (REASONS[endpoint.disabledReason] ?? endpoint.disabledReason) : null;
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      {endpoint.state === "active" && <Badge tone="green">Active</Badge>}
      {endpoint.state === "paused" && <Badge tone="slate">Paused</Badge>}
      {endpoint.state === "disabled" && (
        <Badge tone="red" title={reason ?? undefined}>
          Disabled{reason ? `: ${reason}` : ""}
        </Badge>
      )}
      {endpoint.circuitState === "open" && (
        <Term explain="Your server failed many times in a row, so Herald holds deliveries back and tries one now and then; when it succeeds, the rest follow.">
          <Badge tone="amber">Circuit open</Badge>
        </Term>
      )}
      {/* "Circuit open" in every view and state (the wait reasons say it too); probing is a detail of it. */}
      {endpoint.circuitState === "half_open" && (
        <Term explain="Your server failed many times in a row, so Herald holds deliveries back; right now it is sending one as a test, and the rest follow when it succeeds.">
          <Badge tone="amber">Circuit open · probe due</Badge>
        </Term>
      )}
    </span>
  );
}
