import net from "node:net";
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
//
// Writes: node-postgres writes each message of a statement (bind, describe, execute, sync) with
// its own socket write, four system calls per statement, and on loopback each one also runs the
// server side's receive path. gatheringSocket sends what one turn of the event loop wrote as one
// write, the way Node's HTTP client does it (cork at the first write, uncork on the next tick).
export const CONNECT_TIMEOUT_MS = 5_000;

function gatheringSocket(): net.Socket {
  const socket = new net.Socket();
  const write = socket.write as (...args: unknown[]) => boolean;
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  socket.write = ((...args: unknown[]) => {
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return write.apply(socket, args);
  }) as net.Socket["write"];
  return socket;
}

export const pgConnection = (connectionString: string) => ({
  connectionString,
  stream: gatheringSocket,
  options: "-c TimeZone=UTC",
  connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
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

