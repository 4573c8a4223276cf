import type { Cluster, Redis, RedisOptions } from "ioredis";
import { env } from "../env";
import { summarised } from "./summarise-errors";
import { createRedisClient, parseRedisTopology, type RedisTopology } from "./redis-topology.mjs";
import { processWide } from "../process-wide";

// Redis connections, every one of them opened here (standalone, cluster or sentinel, per
// HERALD_REDIS_MODE). BullMQ needs maxRetriesPerRequest: null on connections used by workers;
// queues in the web process fail fast instead, so a Redis outage surfaces as an error (the
// delivery is still safe in PostgreSQL and the sweeper enqueues it later).
//
// A lost connection (Redis restarted or failed over) is reconnected by ioredis for ever, with its
// back-off; the `error` events meanwhile are logged, summarised, instead of ioredis printing each
// one as an "Unhandled error event".

/** A connection in any mode: a Redis (standalone, or the master found through Sentinel) or a Cluster. */
export type RedisClient = Redis | Cluster;

/** Where Redis is, from the validated config (lib/env.ts checked it already). */
export function redisTopology(): RedisTopology {
  const e = env();
  return parseRedisTopology({
    mode: e.HERALD_REDIS_MODE,
    url: e.REDIS_URL,
    sentinelName: e.HERALD_REDIS_SENTINEL_NAME,
    sentinelPassword: e.HERALD_REDIS_SENTINEL_PASSWORD,
  });
}

export function createRedis(purpose: "worker" | "client", overrides: RedisOptions = {}): RedisClient {
  const client = createRedisClient(redisTopology(), {
    maxRetriesPerRequest: purpose === "worker" ? null : 2,
    enableOfflineQueue: purpose === "worker",
    connectTimeout: 5_000,
    lazyConnect: false,
    ...overrides,
  });
  client.on("error", summarised("Redis connection error; reconnecting"));
  return client;
}

/** The process's shared client connection (queues, rate limits, health). */
export function redis(): RedisClient {
  return processWide("heraldRedis", () => createRedis("client"));
}

/**
 * BullMQ's key prefix: the run's prefix as a Redis Cluster hash tag (`{herald}`), so each queue's
 * keys, which BullMQ's Lua scripts touch together, share one slot. The same in every mode, so a
 * deployment can move to a cluster without its queues changing names.
 */
export function queuePrefix(): string {
  return `{${env().HERALD_REDIS_PREFIX}}`;
}

/**
 * The prefix of Herald's own keys (endpoint gates, locks, listen relay, metrics). Keys a Lua
 * script touches together carry their own hash tag after it (`${prefix}:gate:{${endpointId}}:...`),
 * so they spread over a cluster's nodes by endpoint.
 */
export function keyPrefix(): string {
  return env().HERALD_REDIS_PREFIX;
}
