import { Badge } from "../ui/badge";

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
        <Badge tone="amber" title="Deliveries are held back after repeated failures; Herald probes the endpoint before resuming">
          Circuit open
        </Badge>
      )}
      {endpoint.circuitState === "half_open" && <Badge tone="amber">Circuit probing</Badge>}
    </span>
  );
}
