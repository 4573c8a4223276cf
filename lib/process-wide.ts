// The web process loads lib/ more than once: tsx for server.ts's direct routes, Next.js's bundles
// for the route handlers, proxy.ts and instrumentation.ts, and Next's dev server reloads again
// (ARCHITECTURE.md). Module-level state would exist once per copy: two database pools, two id
// clocks, a cache that one copy clears and the other keeps. What must be one per process is made
// here, the first time any copy asks, and kept on globalThis under its name.

const store = globalThis as unknown as Record<string, unknown>;

/** The process's one `name`, made by `create` on first use. */
export function processWide<T>(name: `herald${string}`, create: () => T): T {
  return (store[name] ??= create()) as T;
}
