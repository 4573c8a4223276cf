import type pg from "pg";
import { summarised } from "./queue/summarise-errors";

// How Herald's processes connect to PostgreSQL, for both pools: Prisma's adapter (lib/db.ts) and
// node-postgres for the hot paths (lib/sql.ts).
//
// Every session runs in UTC, whatever the server's default zone (Debian's initdb takes the
// host's). The columns are timestamptz, so what is stored is an instant in any zone; but Prisma's
// pg adapter sends a Date as UTC digits without an offset and reads a timestamptz by dropping its
// offset, which is only right in a UTC session. (An `options` parameter in DATABASE_URL itself
// would replace this one.)
//
// Faults: a connection attempt gives up after CONNECT_TIMEOUT_MS (node-postgres waits forever by
// default, also for a free client of a full pool), so a request fails with a 503 instead of
// hanging while PostgreSQL is unreachable; TCP keep-alive finds connections to a server that
// vanished without closing them.
export const CONNECT_TIMEOUT_MS = 5_000;
/**
 * How long a pool keeps a connection nobody uses. node-postgres closes them after 10 s by
 * default, so under a load that varies from second to second the pools kept closing connections
 * and opening new ones: at a steady 200 messages/s most backends were 3 to 30 s old. Each new one
 * is a forked backend that loads its catalog caches and prepares the hot statements again, and
 * the request that opens it waits. A minute keeps a busy process's connections (never more than
 * the pool's max) and still gives them back soon after a burst.
 */
export const IDLE_TIMEOUT_MS = 60_000;

export const pgConnection = (connectionString: string) => ({
  connectionString,
  options: "-c TimeZone=UTC",
  connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  idleTimeoutMillis: IDLE_TIMEOUT_MS,
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
});

/**
 * For a pool's `error` event: an idle client lost its connection (PostgreSQL restarted, failed
 * over, or terminated the backend). The pool has already dropped that client and opens a new
 * one when needed; without a listener, node-postgres's `error` event would crash the process.
 */
export function onIdleClientError(pool: string): (err: Error) => void {
  const log = summarised(`PostgreSQL closed an idle connection of the ${pool} pool; it reconnects when needed`);
  return (err) => log(err);
}

/** Attaches the handler above to a node-postgres pool. */
export function handleIdleErrors(p: pg.Pool, name: string): pg.Pool {
  p.on("error", onIdleClientError(name));
  return p;
}

