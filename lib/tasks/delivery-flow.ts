import { setTimeout as sleep } from "node:timers/promises";
import { db } from "../db";
import { enqueueDeliveries } from "../delivery/enqueue-deliveries";
import { catalog, queue } from "../queue/catalog";

// Flow control for bulk tasks, so a 100,000-message replay does not bury everyone else's
// deliveries: a task keeps at most `maxInFlight` of its deliveries waiting for their next
// attempt (enqueued, not yet attempted) and adds more only as those are attempted, and it also
// waits while the delivery queue as a whole is deeper than `maxQueueDepth`. Work then enters the
// queue at the pace the engine takes it, never thousands of jobs ahead of an unrelated one.
// A target that is not being attempted (circuit open, endpoint paused) must not freeze the task,
// so the in-flight wait gives up after STUCK_WAIT_MS and sends the next chunk anyway.

const POLL_MS = 100;
export const STUCK_WAIT_MS = 10_000;

export function createDeliveryFlow(opts: { maxInFlight: number; maxQueueDepth: number; interrupted: () => boolean }) {
  let outstanding: string[] = [];
  const chunk = Math.max(1, Math.floor(opts.maxInFlight / 2));

  async function stillOutstanding(): Promise<void> {
    if (outstanding.length === 0) return;
    const rows = await db.$queryRaw<{ id: string }[]>`
      SELECT id FROM delivery
      WHERE id = ANY(${outstanding}::text[])
        AND (status = 'sending' OR (status = 'pending' AND (next_attempt_at IS NULL OR next_attempt_at <= now())))`;
    outstanding = rows.map((r) => r.id);
  }

  async function queueDepth(): Promise<number> {
    const c = await queue(catalog.deliver.queue).getJobCounts("waiting", "prioritized");
    return (c.waiting ?? 0) + (c.prioritized ?? 0);
  }

  /** Waits (until interrupted) for room for `n` more deliveries. */
  async function waitForRoom(n = chunk): Promise<void> {
    const giveUpAt = Date.now() + STUCK_WAIT_MS;
    for (;;) {
      if (opts.interrupted()) return;
      if (outstanding.length + n > opts.maxInFlight) await stillOutstanding();
      const windowOk = outstanding.length + n <= opts.maxInFlight || Date.now() > giveUpAt;
      if (windowOk && (await queueDepth()) < opts.maxQueueDepth) return;
      await sleep(POLL_MS);
    }
  }

  return {
    waitForRoom,
    /** Enqueues committed deliveries in chunks, each when there is room for it. */
    async send(ids: string[]): Promise<void> {
      for (let i = 0; i < ids.length; i += chunk) {
        const part = ids.slice(i, i + chunk);
        // Once interrupted (cancel, shutdown) the rest goes at once: it is committed work.
        if (i > 0) await waitForRoom(part.length);
        await enqueueDeliveries(part.map((id) => ({ id })));
        outstanding.push(...part);
      }
    },
  };
}
