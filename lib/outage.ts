// Is this error PostgreSQL or Redis being unreachable (restarting, failing over, connections
// terminated), rather than a bug? The route builder answers those with a 503 and Retry-After
// (lib/http/route.ts), and the worker retries the job later instead of failing it. The shapes are
// what node-postgres, Prisma's pg adapter and ioredis actually throw here (checked against a
// stopped server, a restart and pg_terminate_backend).

export type Outage = "database" | "redis";

// SQLSTATE classes 08 (connection exception) and 57P0x (operator intervention: admin or crash
// shutdown, cannot connect now while starting up or in recovery), 53300 too many connections, and
// 25006 (a write refused as read-only): during a failover the URL can briefly lead to the replica
// before its promotion. Herald never writes in a read-only transaction of its own.
const PG_CODES = /^(08...|57P0[1-4]|53300|25006)$/;
// Prisma: can't reach / timed out / operation timed out / server closed the connection / pool timeout / too many connections.
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"]);

const PG_MESSAGES =
  /Can't reach database server|terminating connection|Connection terminated|timeout exceeded when trying to connect|not queryable|the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)|Server has closed the connection|Timed out fetching a new connection|Connection closed/i;
const REDIS_MESSAGES =
  /enableOfflineQueue|Reached the max retries per request|Connection is closed|Stream isn't writeable|LOADING Redis is loading|READONLY You can't write against a read only replica|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|Failed to refresh slots cache/i;

type Shaped = {
  code?: unknown;
  originalCode?: unknown;
  message?: unknown;
  meta?: { code?: unknown; message?: unknown; driverAdapterError?: unknown };
  name?: unknown;
  cause?: unknown;
};

/**
 * The error and the errors it wraps, outermost first, at most 5 deep: `cause`, or for a Prisma
 * error the driver adapter's error in `meta` (whose `cause` holds PostgreSQL's `originalCode`).
 */
function* causes(err: unknown): Generator<Shaped> {
  let e = err as Shaped | undefined;
  for (let depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    yield e;
    e = (e.cause ?? e.meta?.driverAdapterError) as Shaped | undefined;
  }
}

// A SQLSTATE: five characters whose class (the first two) PostgreSQL defines. Prisma's own codes
// (P1001, P2010…) and socket codes (EPIPE) are not.
const SQLSTATE = /^(0[0-9A-Z]|[1-5][0-9A-Z]|F0|HV|P0|XX)[0-9A-Z]{3}$/;

/**
 * PostgreSQL's SQLSTATE of a database error, as node-postgres throws it or Prisma's pg adapter
 * wraps it (`cause`, `originalCode`, `meta.code`, or a raw query's `meta.driverAdapterError`);
 * null for anything else.
 */
export function sqlStateOf(err: unknown): string | null {
  for (const e of causes(err))
    for (const c of [e.code, e.originalCode, e.meta?.code]) if (typeof c === "string" && SQLSTATE.test(c)) return c;
  return null;
}

export function outageOf(err: unknown): Outage | null {
  for (const e of causes(err)) {
    const code = typeof e.code === "string" ? e.code : "";
    const message = typeof e.message === "string" ? e.message : "";
    const name = typeof e.name === "string" ? e.name : "";
    if (name === "MaxRetriesPerRequestError" || REDIS_MESSAGES.test(message)) return "redis";
    if (PG_CODES.test(code) || PRISMA_CODES.has(code)) return "database";
    // A raw query through Prisma (P2010) carries the driver's code and message in `meta`.
    const metaCode = typeof e.meta?.code === "string" ? e.meta.code : "";
    const metaMessage = typeof e.meta?.message === "string" ? e.meta.message : "";
    if (PG_CODES.test(metaCode) || PG_MESSAGES.test(metaMessage)) return "database";
    if (PG_MESSAGES.test(message)) return "database";
    // A bare socket error: which server it was is in the message (ioredis says "redis" nowhere, but
    // its port does not matter here: both are worth a retry).
    if (SOCKET_CODES.has(code)) return /redis/i.test(name) ? "redis" : "database";
  }
  return null;
}
