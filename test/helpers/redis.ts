import { createRedisClient, topologyFromEnv } from "@/lib/queue/redis-topology.mjs";
import type { RedisClient } from "@/lib/queue/connection";

// A test's own connection to the run's Redis, in whatever mode the run uses (npm test runs some
// suites again on a Redis Cluster and on Sentinel: REDIS_URL and HERALD_REDIS_MODE say which).
export function testRedis(env: Record<string, string | undefined> = process.env): RedisClient {
  return createRedisClient(topologyFromEnv(env));
}

/** BullMQ's prefix for a run or stack prefix (hash-tagged, as lib/queue/connection.ts makes it). */
export const bullPrefix = (prefix: string) => `{${prefix}}`;
