import type { RedisClient } from "../queue/connection";

// Delivery outcomes summed over every worker process, in one Redis hash, so the web process's
// /metrics shows cluster-wide totals. Workers add their counts once a second.

const key = (prefix: string) => `${prefix}:metrics:deliveries`;

export function createClusterCounter(redis: RedisClient, prefix: string) {
  let pending = new Map<string, number>();
  return {
    add(outcome: string, n = 1) {
      pending.set(outcome, (pending.get(outcome) ?? 0) + n);
    },
    async flush() {
      if (pending.size === 0) return;
      const batch = pending;
      pending = new Map();
      const m = redis.multi();
      for (const [outcome, n] of batch) m.hincrby(key(prefix), outcome, n);
      await m.exec();
    },
  };
}

export async function readClusterCounts(redis: RedisClient, prefix: string): Promise<Record<string, number>> {
  const raw = await redis.hgetall(key(prefix));
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Number(v)]));
}
