import type { Redis } from "ioredis";
import { logger } from "../logger";

// The worker's periodic jobs (sweepers, clean-ups, ticks): a timer that never overlaps itself, and
// a cluster-wide lock for the jobs that must run in one process at a time.

export type Periodic = {
  /** No further runs start; a run in progress finishes (await `idle()` for it). */
  stop(): void;
  idle(): Promise<unknown>;
};

/** Runs `fn` every `ms` (never overlapping itself, first after `firstMs`), logging failures. */
export function every(ms: number, name: string, fn: () => Promise<unknown>, firstMs = ms): Periodic {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = fn()
      .catch((err: unknown) => logger.warn({ err, job: name }, "periodic job failed"))
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
export async function takeLock(redis: Redis, key: string, ttlMs: number): Promise<boolean> {
  return (await redis.set(key, String(process.pid), "PX", ttlMs, "NX")) === "OK";
}
