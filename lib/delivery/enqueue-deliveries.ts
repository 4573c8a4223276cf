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

// A delivery for a blocked endpoint (its circuit is open, or it stays at its in-flight cap: the
// oldest of its parked deliveries has waited a second) goes straight behind its parked ones,
// without a queue job: the job would only be fetched to be parked. So a blocked endpoint costs
// the worker nothing per delivery it receives. Checking costs one Redis call per endpoint and
// enqueue; an endpoint found not blocked is not asked again for TRUST_MS (its jobs meanwhile
// are admitted, or parked, by the worker as usual).
const BLOCKED_AFTER_MS = 1_000;
const TRUST_MS = 1_000;
/** How often this process puts a blocked endpoint back in the parked index. */
const REINDEX_MS = 1_000;
const REMEMBERED_MAX = 10_000;
/** Endpoint id -> until when "not blocked" is trusted, in this process. */
const clearUntil = new Map<string, number>();
/** Endpoint id -> when this process last put it in the parked index. */
const indexedAt = new Map<string, number>();
let gate: EndpointGate | undefined;

/** The ids of the deliveries parked behind their blocked endpoint's parked ones (none on any error). */
async function parkBehindWaiting(deliveries: { id: string; endpointId?: string; delayMs?: number }[]): Promise<Set<string>> {
  const now = Date.now();
  const byEndpoint = new Map<string, string[]>();
  for (const d of deliveries) {
    if (!d.endpointId || d.delayMs || (clearUntil.get(d.endpointId) ?? 0) > now) continue;
    const ids = byEndpoint.get(d.endpointId);
    if (ids) ids.push(d.id);
    else byEndpoint.set(d.endpointId, [d.id]);
  }
  const parked = new Set<string>();
  if (byEndpoint.size === 0) return parked;
  gate ??= createEndpointGate(redis(), keyPrefix(), 0);
  if (clearUntil.size >= REMEMBERED_MAX) clearUntil.clear();
  if (indexedAt.size >= REMEMBERED_MAX) indexedAt.clear();
  await Promise.all(
    [...byEndpoint].map(async ([endpointId, ids]) => {
      try {
        const members = ids.map((id) => memberOf(id, "scheduled"));
        if (!(await gate!.parkBehind(endpointId, members, BLOCKED_AFTER_MS))) {
          clearUntil.set(endpointId, now + TRUST_MS);
          return;
        }
        for (const id of ids) parked.add(id);
        // Whoever parked first indexed the endpoint; again once a second from here, so an index
        // entry lost with a worker that died between parking and indexing comes back with the
        // endpoint's next traffic (the tick wakes only indexed endpoints).
        if ((indexedAt.get(endpointId) ?? 0) + REINDEX_MS <= now) {
          indexedAt.set(endpointId, now);
          await gate!.indexParked([endpointId]);
        }
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
