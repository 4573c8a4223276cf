import type { CircuitWait, WaitReason } from "@/lib/portal/wait-reason";
import { formatTime, relativeTime } from "../ui/format";

/** A moment as clock time (and how far off), the full date and time on hover. */
export function When({ iso }: { iso: string | null }) {
  if (!iso) return <span>soon</span>;
  const d = new Date(iso);
  const sameDay = d.toDateString() === new Date().toDateString();
  const clock = sameDay ? d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" }) : formatTime(iso);
  return (
    <time dateTime={iso} title={formatTime(iso)}>
      {clock} ({relativeTime(iso)})
    </time>
  );
}

/**
 * How long the endpoint has failed, and its last failed attempt: the same words and the same
 * moments in every view (the outage's start does not move with probes).
 */
export function CircuitSince({ circuit }: { circuit: Pick<CircuitWait, "failingSince" | "openedAt" | "failures"> }) {
  return (
    <>
      failing since <When iso={circuit.failingSince} />; {circuit.failures} failed attempts in a row, the last at{" "}
      <When iso={circuit.openedAt} />
    </>
  );
}

/** Why a delivery is not delivered yet, and until when, in one sentence (lib/portal/wait-reason.ts). */
export function WaitReasonText({ reason }: { reason: WaitReason }) {
  switch (reason.kind) {
    case "sending":
      return <>Being sent now: the attempt is in progress.</>;
    case "endpoint_paused":
      return <>Held: the endpoint is paused. Nothing is sent while it is; resume it to deliver (if it comes due while paused it is dead-lettered, and you can retry it).</>;
    case "endpoint_disabled":
      return (
        <>
          Held: the endpoint is disabled{reason.reason ? ` (${reason.reason})` : ""}. Nothing is sent until it is enabled again.
        </>
      );
    case "scheduled":
      return (
        <>
          {reason.first ? "First attempt" : "Retry"} scheduled at <When iso={reason.at} />
          {reason.circuit &&
            (reason.circuit.probing ? (
              <>; the circuit is open, a probe is due</>
            ) : (
              <>
                ; the circuit is open, next probe at <When iso={reason.circuit.nextProbeAt} />
              </>
            ))}
          .
        </>
      );
    case "circuit_open":
      return reason.probing ? (
        <>
          Circuit open, <CircuitSince circuit={reason} />. Probe due: the next delivery goes as a test; the rest follow if it
          succeeds.
        </>
      ) : (
        <>
          Circuit open, <CircuitSince circuit={reason} />. Next probe at <When iso={reason.nextProbeAt} />. Held until your server
          answers again.
        </>
      );
    case "in_flight_limit":
      return <>Waiting for a free slot: the endpoint is at its in-flight limit ({reason.limit} requests at once).</>;
    case "throttled":
      return <>Throttled to {reason.ratePerSecond}/s (its rate limit): sent in turn.</>;
    case "queued":
      return <>Due now: queued for the next attempt.</>;
  }
}
