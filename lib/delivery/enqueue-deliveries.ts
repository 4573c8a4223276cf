import { enqueue } from "../queue/catalog";
import { logger } from "../logger";

// Hands committed deliveries to the queue. PostgreSQL is the source of truth: if this fails
// (Redis down, crash right after commit) the sweeper finds the due deliveries and enqueues them.

export async function enqueueDeliveries(
  deliveries: { id: string; delayMs?: number }[],
  trigger: "scheduled" | "manual" = "scheduled",
): Promise<boolean> {
  try {
    await enqueue(
      "deliver",
      deliveries.map((d) => ({
        data: { deliveryId: d.id, trigger },
        opts: { jobId: d.id, ...(d.delayMs ? { delay: d.delayMs } : {}) },
      })),
    );
    return true;
  } catch (err) {
    logger.warn({ err, count: deliveries.length }, "enqueue failed; the sweeper will pick these deliveries up");
    return false;
  }
}
