import type { EndpointOut } from "@/lib/endpoints/serialize";
import { CIRCUIT_COOLDOWN_MAX_MS, CIRCUIT_OPEN_AFTER_FAILURES, circuitPhase } from "@/lib/delivery/circuit-breaker";
import { Notice } from "../ui/notice";
import { When } from "./wait-reason";

type CircuitFields = "circuitState" | "circuitOpenedAt" | "circuitNextProbeAt" | "failingSince" | "consecutiveFailures";

/**
 * The circuit breaker in plain words, on the endpoint's page while it is open: what happened
 * (since when the server fails, and whether a failed probe re-opened the circuit), that nothing
 * is lost, and when Herald tries again.
 */
export function CircuitNotice({ endpoint, now = Date.now() }: { endpoint: Pick<EndpointOut, CircuitFields>; now?: number }) {
  const phase = circuitPhase(endpoint.circuitState, endpoint.circuitNextProbeAt, now);
  if (phase === "closed") return null;
  return (
    <Notice tone="warn" title="Herald is holding deliveries to this endpoint (circuit open)">
      <p data-testid="circuit-explainer">
        Your server has been failing since <When iso={endpoint.failingSince} />; after {CIRCUIT_OPEN_AFTER_FAILURES} failed
        attempts in a row, Herald has stopped sending to your server so it is not flooded while it is down
        {endpoint.consecutiveFailures > CIRCUIT_OPEN_AFTER_FAILURES ? (
          <>
            {" "}
            ({endpoint.consecutiveFailures} failed in a row so far, the last at <When iso={endpoint.circuitOpenedAt} />)
          </>
        ) : null}
        . Held deliveries are not lost and none of their retries are used up.{" "}
        {phase === "probing" ? (
          <>A probe is due: the next delivery to your server goes as a test.</>
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
