import { createRedis, type RedisClient } from "../queue/connection";
import { logger } from "../logger";
import { processWide } from "../process-wide";

// The relay's Redis connections, one pair per process: a subscriber shared by every stream (web)
// or waiting attempt (worker) that needs a channel (subscribed while at least one handler wants
// it; ioredis subscribes again by itself after a reconnect), and a publisher for its commands.
// The publisher queues commands while it connects (the process's shared client does not, so its
// first command in a fresh process would fail) and fails fast after that during an outage. Kept
// on globalThis: the web process loads modules both through Next.js's bundle and through tsx.

type Handler = (message: string) => void;
type Hub = { sub: RedisClient; handlers: Map<string, Set<Handler>> };

const g = processWide<{ hub?: Hub; publisher?: RedisClient }>("heraldListenRelay", () => ({}));

/** The connection the relay publishes and keeps presence with. */
export function publisher(): RedisClient {
  g.publisher ??= createRedis("client", { enableOfflineQueue: true });
  return g.publisher;
}

function hub(): Hub {
  if (!g.hub) {
    // A "worker" connection: it waits (queues commands) through a Redis restart instead of failing.
    const sub = createRedis("worker");
    const handlers = new Map<string, Set<Handler>>();
    sub.on("message", (channel: string, message: string) => {
      for (const h of handlers.get(channel) ?? []) h(message);
    });
    sub.on("error", (err) => logger.warn({ err }, "listen relay subscriber error"));
    g.hub = { sub, handlers };
  }
  return g.hub;
}

/** Calls `handler` for every message on `channel` until the returned function is called. */
export async function subscribe(channel: string, handler: Handler): Promise<() => Promise<void>> {
  const { sub, handlers } = hub();
  let set = handlers.get(channel);
  if (!set) {
    set = new Set();
    handlers.set(channel, set);
  }
  set.add(handler);
  if (set.size === 1) await sub.subscribe(channel);
  return async () => {
    const current = handlers.get(channel);
    if (!current?.delete(handler) || current.size > 0) return;
    handlers.delete(channel);
    await sub.unsubscribe(channel).catch(() => undefined);
  };
}

/** Closes the process's subscriber connection (worker shutdown). */
export function closeHub() {
  g.hub?.sub.disconnect();
  g.publisher?.disconnect();
  delete g.hub;
  delete g.publisher;
}
