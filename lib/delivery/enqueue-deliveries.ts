import { enqueue } from "../queue/catalog";
import { summarised } from "../queue/summarise-errors";

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
    await enqueue(
      "deliver",
      deliveries.map((d) => ({
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
