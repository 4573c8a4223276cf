import type { Redis } from "ioredis";
import { createRedis } from "../queue/connection";
import { logger } from "../logger";

// One Redis subscriber connection per process, shared by every stream (web) or waiting attempt
// (worker) that needs a channel; a channel is subscribed while at least one handler wants it.
// ioredis subscribes again by itself after a reconnect. Kept on globalThis: the web process
// loads modules both through Next.js's bundle and through tsx (server.ts).

type Handler = (message: string) => void;
type Hub = { sub: Redis; handlers: Map<string, Set<Handler>> };

const g = globalThis as unknown as { heraldListenHub?: Hub };

function hub(): Hub {
  if (!g.heraldListenHub) {
    // A "worker" connection: it waits (queues commands) through a Redis restart instead of failing.
    const sub = createRedis("worker");
    const handlers = new Map<string, Set<Handler>>();
    sub.on("message", (channel: string, message: string) => {
      for (const h of handlers.get(channel) ?? []) h(message);
    });
    sub.on("error", (err) => logger.warn({ err }, "listen relay subscriber error"));
    g.heraldListenHub = { sub, handlers };
  }
  return g.heraldListenHub;
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
  g.heraldListenHub?.sub.disconnect();
  delete g.heraldListenHub;
}
