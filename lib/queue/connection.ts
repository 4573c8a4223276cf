import { Redis, type RedisOptions } from "ioredis";
import { env } from "../env";
import { summarised } from "./summarise-errors";

// Redis connections. BullMQ needs maxRetriesPerRequest: null on connections used by workers;
// queues in the web process fail fast instead, so a Redis outage surfaces as an error (the
// delivery is still safe in PostgreSQL and the sweeper enqueues it later).

//
// A lost connection (Redis restarted or failed over) is reconnected by ioredis for ever, with its
// back-off; the `error` events meanwhile are logged, summarised, instead of ioredis printing each
// one as an "Unhandled error event".
export function createRedis(purpose: "worker" | "client", overrides: RedisOptions = {}): Redis {
  const client = new Redis(env().REDIS_URL, {
    maxRetriesPerRequest: purpose === "worker" ? null : 2,
    enableOfflineQueue: purpose === "worker",
    connectTimeout: 5_000,
    lazyConnect: false,
    ...overrides,
  });
  client.on("error", summarised("Redis connection error; reconnecting"));
  return client;
}

const globalForRedis = globalThis as unknown as { heraldRedis?: Redis };

/** The process's shared client connection (queues, rate limits, health). */
export function redis(): Redis {
  globalForRedis.heraldRedis ??= createRedis("client");
  return globalForRedis.heraldRedis;
}

export function queuePrefix(): string {
  return env().HERALD_REDIS_PREFIX;
}
