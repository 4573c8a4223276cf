import { enqueue } from "../queue/catalog";
import { keyPrefix, redis } from "../queue/connection";
import { summarised } from "../queue/summarise-errors";
import { createEndpointGate, memberOf, type EndpointGate } from "./endpoint-gate";

// Hands committed deliveries to the queue. PostgreSQL is the source of truth: if this fails
// (Redis down, crash right after commit) the sweeper finds the due deliveries and enqueues them.
// The job id is the delivery id, so enqueuing a delivery twice is harmless; failed jobs are not
// kept, so a delivery whose job failed has no job and the sweeper picks it up again.

// While Redis is down every publish fails to enqueue: one log line per burst, with the count.
const enqueueFailed = summarised("enqueue failed; the sweeper will pick these deliveries up");

export async function enqueueDeliveries(
  deliveries: { id: string; endpointId?: string; delayMs?: number }[],
  trigger: "scheduled" | "manual" = "scheduled",
): Promise<boolean> {
  try {
    const parked = trigger === "scheduled" ? await parkBehindWaiting(deliveries) : new Set<string>();
    const jobs = deliveries.filter((d) => !parked.has(d.id));
    if (jobs.length === 0) return true;
    await enqueue(
      "deliver",
      jobs.map((d) => ({
        data: { deliveryId: d.id, trigger, ...(d.endpointId ? { endpointId: d.endpointId } : {}) },
        opts: { jobId: d.id, removeOnFail: true, ...(d.delayMs ? { delay: d.delayMs } : {}) },
      })),
    );
    return true;
  } catch (err) {
    enqueueFailed(err instanceof Error ? err : new Error(String(err)));
    return false;
  }
}

// A delivery for an endpoint that has parked deliveries (at its in-flight cap, or its circuit is
// open) goes straight behind them, without a queue job: its job would only be fetched to be
// parked. So a blocked endpoint costs the worker nothing per delivery it receives, and the queue
// that healthy endpoints' jobs wait in stays as short as their own traffic. Checking costs one
// Redis call per endpoint; an endpoint found with nothing parked is not asked again for
// CLEAR_TRUST_MS (its jobs meanwhile are admitted, or parked, by the worker as usual).
const CLEAR_TRUST_MS = 1_000;
const CLEAR_MAX = 10_000;
/** Endpoint id -> until when "nothing parked" is trusted, in this process. */
const clearUntil = new Map<string, number>();
let gate: EndpointGate | undefined;

/** The ids of the deliveries parked behind their endpoint's parked ones (none on any error). */
async function parkBehindWaiting(deliveries: { id: string; endpointId?: string; delayMs?: number }[]): Promise<Set<string>> {
  const now = Date.now();
  const candidates = deliveries.filter(
    (d): d is typeof d & { endpointId: string } =>
      d.endpointId !== undefined && !d.delayMs && (clearUntil.get(d.endpointId) ?? 0) <= now,
  );
  const parked = new Set<string>();
  if (candidates.length === 0) return parked;
  gate ??= createEndpointGate(redis(), keyPrefix(), 0);
  if (clearUntil.size >= CLEAR_MAX) clearUntil.clear();
  await Promise.all(
    candidates.map(async (d) => {
      try {
        if (await gate!.parkBehind(d.endpointId, [memberOf(d.id, "scheduled")])) parked.add(d.id);
        else clearUntil.set(d.endpointId, now + CLEAR_TRUST_MS);
      } catch {
        // Redis unreachable: the enqueue below fails too, and the sweeper picks the delivery up.
      }
    }),
  );
  return parked;
}

/**
 * A manual attempt (resend) of one delivery, as its own job: a scheduled job waiting for the same
 * delivery must neither swallow it nor be replaced by it.
 */
export async function enqueueManualAttempt(deliveryId: string): Promise<void> {
  await enqueue("deliver", [
    {
      data: { deliveryId, trigger: "manual" },
      opts: { jobId: `${deliveryId}-manual-${Date.now().toString(36)}`, removeOnFail: true },
    },
  ]);
}

let resumed = 0;

/**
 * Parked deliveries that were given a slot: through their own small queue, so they do not wait
 * behind the main queue's backlog. Each resume is a new job (a job of an earlier resume may still
 * be finishing); the claim's compare-and-set keeps attempts of one delivery one at a time.
 */
export async function enqueueResumed(items: { deliveryId: string; trigger: "scheduled" | "manual" }[]): Promise<void> {
  const stamp = `${process.pid.toString(36)}-${Date.now().toString(36)}`;
  await enqueue(
    "deliver.resume",
    items.map((i) => ({
      data: { deliveryId: i.deliveryId, trigger: i.trigger },
      opts: { jobId: `${i.deliveryId}-resume-${stamp}-${(resumed++).toString(36)}`, removeOnFail: true },
    })),
  );
}
