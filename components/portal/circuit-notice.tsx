import type { EndpointOut } from "@/lib/endpoints/serialize";
import { CIRCUIT_COOLDOWN_MAX_MS, CIRCUIT_OPEN_AFTER_FAILURES } from "@/lib/delivery/circuit-breaker";
import { Notice } from "../ui/notice";
import { When } from "./wait-reason";

/**
 * The circuit breaker in plain words, on the endpoint's page while it is open: what happened,
 * that nothing is lost, and when Herald tries again.
 */
export function CircuitNotice({ endpoint }: { endpoint: Pick<EndpointOut, "circuitState" | "circuitOpenedAt" | "circuitNextProbeAt"> }) {
  if (endpoint.circuitState === "closed") return null;
  return (
    <Notice tone="warn" title="Herald is holding deliveries to this endpoint (circuit open)">
      <p data-testid="circuit-explainer">
        Since <When iso={endpoint.circuitOpenedAt} />, after {CIRCUIT_OPEN_AFTER_FAILURES} failed attempts in a row, Herald has
        stopped sending to your server so it is not flooded while it is down. Held deliveries are not lost and none of their
        retries are used up.{" "}
        {endpoint.circuitState === "half_open" ? (
          <>Right now one delivery is being sent as a test (a probe).</>
        ) : (
          <>
            At <When iso={endpoint.circuitNextProbeAt} /> Herald sends one delivery as a test (a probe).
          </>
        )}{" "}
        If your server answers with a 2xx, everything held is sent again; if not, Herald waits longer before the next test (the
        longer the outage, the longer the wait, at most {CIRCUIT_COOLDOWN_MAX_MS / 60_000} minutes).
      </p>
    </Notice>
  );
}
