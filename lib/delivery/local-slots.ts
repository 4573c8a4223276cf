// Jobs of this worker process that found their endpoint at its in-flight cap. A job waits here
// only while its expected wait is short — judged from how long this endpoint's requests hold a
// slot (an average kept per endpoint) and how many jobs are already waiting — and only while the
// endpoint makes progress. Otherwise it is parked in Redis (lib/delivery/endpoint-gate.ts).
// A request that ends hands its slot (its lease in Redis) straight to the first job waiting here,
// before parked ones: that job is already claimed and in memory. The lease goes over as it is,
// renewed in Redis only when it has run for a while (lib/delivery/engine.ts). So a fast endpoint
// with a backlog costs no parking and no Redis call per delivery for its slot, while a slow or
// stuck endpoint's jobs leave the worker's slots within about LOCAL_WAIT_MS.
// A request that ends with nobody waiting, at an endpoint nobody had to wait for lately, keeps its
// lease as the endpoint's *spare* for SPARE_LINGER_MS: the endpoint's next job in this process takes
// it without a Redis call. An endpoint receiving a steady trickle (tens a second) so costs about two
// Redis calls a second for its slot instead of two per delivery; an idle one gives the spare back
// after the linger, waking any parked deliveries. Only endpoints that were not contended here
// lately keep one, and only a young lease (the engine's SPARE_MAX_AGE_MS), so a delivery another
// process parked for the endpoint waits at most about a second longer for the slot.

import type { Lease } from "./endpoint-gate";

/** The longest expected wait for a slot that a job spends inside a worker slot. */
export const LOCAL_WAIT_MS = 1_000;
/** Weight of the latest request in an endpoint's average slot hold time. */
const HOLD_EWMA_WEIGHT = 0.2;
const MAX_LINES = 10_000;
const INITIAL_HOLD_MS = 25;

/** "handed": the slot is the waiter's now; "stalled": nothing moved; "retry": ask Redis for a slot. */
export type WaitOutcome = { kind: "handed"; lease: Lease } | { kind: "stalled" } | { kind: "retry" };
export type Waiter = { settle(outcome: WaitOutcome): void };
/** A line whose wait stalled (nothing moved for LOCAL_WAIT_MS) parks its next jobs at once for this long, or until it moves. */
const STALL_MEMORY_MS = 30_000;
/** How long a spare lease waits for the endpoint's next job before it is given back. */
export const SPARE_LINGER_MS = 250;
/** An endpoint whose job had to wait or park keeps no spare for this long. */
const CONTENTION_MEMORY_MS = 5_000;
type Spare = { lease: Lease; timer: NodeJS.Timeout };
type EndpointLine = { waiters: Waiter[]; holdMs: number; stalledAt: number; contendedAt: number; spare: Spare | null };

export type LocalSlots = ReturnType<typeof createLocalSlots>;

export function createLocalSlots(cap: number) {
  const lines = new Map<string, EndpointLine>();
  const line = (endpointId: string) => {
    let l = lines.get(endpointId);
    if (!l) {
      // Until requests complete, assume a quick endpoint: a stuck one costs a few slots for
      // LOCAL_WAIT_MS once, while a quick one with a backlog is never parked needlessly.
      l = { waiters: [], holdMs: INITIAL_HOLD_MS, stalledAt: 0, contendedAt: 0, spare: null };
      lines.set(endpointId, l);
    }
    return l;
  };

  /** The endpoint's spare lease, now the caller's (null: none). */
  function takeSpare(endpointId: string): Lease | null {
    const l = lines.get(endpointId);
    const spare = l?.spare;
    if (!l || !spare) return null;
    clearTimeout(spare.timer);
    l.spare = null;
    return spare.lease;
  }

  return {
    /**
     * Is it worth waiting here for a slot, given the jobs already waiting? Not after a wait for
     * this endpoint stalled, until it moves again: an endpoint that never answers would otherwise
     * hold a worker slot for LOCAL_WAIT_MS with every job it gets until its first timeout.
     */
    worthWaiting(endpointId: string): boolean {
      const l = line(endpointId);
      if (l.stalledAt > 0 && Date.now() - l.stalledAt < STALL_MEMORY_MS) return false;
      return ((l.waiters.length + 1) * l.holdMs) / cap <= LOCAL_WAIT_MS;
    },

    /**
     * Waits in line until a request of this process hands its slot over ("handed", with the
     * lease), or until nothing moved for LOCAL_WAIT_MS ("stalled").
     */
    wait(endpointId: string): Promise<WaitOutcome> {
      const l = line(endpointId);
      return new Promise((resolve) => {
        let settled = false;
        const waiter: Waiter = {
          settle(outcome) {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve(outcome);
          },
        };
        const timer = setTimeout(() => {
          const i = l.waiters.indexOf(waiter);
          if (i < 0) return; // taken by a hand-over in progress: it settles
          l.waiters.splice(i, 1);
          l.stalledAt = Date.now();
          waiter.settle({ kind: "stalled" });
        }, LOCAL_WAIT_MS);
        l.waiters.push(waiter);
      });
    },

    /** A request of this endpoint ended after holding its slot `heldMs`: the next in line, if any. */
    next(endpointId: string, heldMs: number): Waiter | undefined {
      const l = line(endpointId);
      l.holdMs += HOLD_EWMA_WEIGHT * (heldMs - l.holdMs);
      l.stalledAt = 0;
      const w = l.waiters.shift();
      // Forget idle endpoints (not one that keeps a spare or was contended lately: that is remembered).
      if (!w && !l.spare && Date.now() - l.contendedAt >= CONTENTION_MEMORY_MS && lines.size > MAX_LINES)
        lines.delete(endpointId);
      return w;
    },

    /** A job of this endpoint found it at its cap (it waits or parks) or was resumed: no spare for a while. */
    contended(endpointId: string): void {
      line(endpointId).contendedAt = Date.now();
    },

    /**
     * Keeps the lease of a request that ended (nobody waiting) as the endpoint's spare, unless the
     * endpoint was contended lately or has a spare already; `giveBack` gets it after the linger.
     * Returns whether it was kept.
     */
    keepSpare(endpointId: string, lease: Lease, giveBack: (lease: Lease) => void): boolean {
      const l = line(endpointId);
      if (l.spare || l.waiters.length > 0 || Date.now() - l.contendedAt < CONTENTION_MEMORY_MS) return false;
      const spare: Spare = {
        lease,
        timer: setTimeout(() => {
          if (l.spare !== spare) return;
          l.spare = null;
          giveBack(lease);
        }, SPARE_LINGER_MS),
      };
      l.spare = spare;
      return true;
    },

    takeSpare,

    /** Every spare, taken (shutdown: they go back to Redis). */
    takeAllSpares(): { endpointId: string; lease: Lease }[] {
      return [...lines.keys()].flatMap((endpointId) => {
        const lease = takeSpare(endpointId);
        return lease ? [{ endpointId, lease }] : [];
      });
    },

    waiting(endpointId: string): number {
      return lines.get(endpointId)?.waiters.length ?? 0;
    },
  };
}
