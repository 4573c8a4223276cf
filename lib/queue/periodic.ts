import type { RedisClient } from "./connection";
import { summarised } from "./summarise-errors";

// The worker's periodic jobs (sweepers, clean-ups, ticks): a timer that never overlaps itself, and
// a cluster-wide lock for the jobs that must run in one process at a time.

export type Periodic = {
  /** No further runs start; a run in progress finishes (await `idle()` for it). */
  stop(): void;
  idle(): Promise<unknown>;
};

/**
 * Runs `fn` every `ms` (never overlapping itself, first after `firstMs`), logging failures. A
 * failure (PostgreSQL or Redis unreachable) never stops the timer: the next run tries again, so
 * the job resumes by itself once the store is back. Failures in a row are logged summarised.
 */
export function every(ms: number, name: string, fn: () => Promise<unknown>, firstMs = ms): Periodic {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const failed = summarised(`periodic job failed: ${name}`);
  const run = () => {
    if (running || stopped) return;
    running = fn()
      .catch((err: unknown) => failed(err instanceof Error ? err : new Error(String(err))))
      .finally(() => (running = null));
  };
  const first = setTimeout(run, firstMs);
  const timer = setInterval(run, ms);
  return {
    stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
    },
    idle: () => running ?? Promise.resolve(),
  };
}

/** Takes `key` for `ttlMs` unless another process holds it: true when this one got it. */
export async function takeLock(redis: RedisClient, key: string, ttlMs: number): Promise<boolean> {
  return (await redis.set(key, String(process.pid), "PX", ttlMs, "NX")) === "OK";
}
