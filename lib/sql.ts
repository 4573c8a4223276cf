import pg from "pg";
import { env } from "./env";

// The hot paths (publish, idempotency keys, delivery claims and attempt records) talk to
// PostgreSQL through node-postgres directly. Their statements are hand-written SQL anyway
// (multi-row, compare-and-set), and Prisma's query compiler costs several milliseconds of CPU per
// raw statement here — more than a whole delivery. Everything else uses the Prisma client
// (lib/db.ts).
//
// Timestamps: Herald's columns are `timestamp(3)` holding UTC. They are read as UTC here, and
// written from ISO strings cast with `::timestamptz AT TIME ZONE 'UTC'`, whatever the process's TZ.

const TIMESTAMP_OID = 1114;

const parseUtcTimestamp = (s: string) => new Date(s.replace(" ", "T") + "Z");

const defaultParser = pg.types.getTypeParser as (oid: number, format?: "text" | "binary") => (value: string) => unknown;

const types = {
  getTypeParser: (oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP_OID ? parseUtcTimestamp : defaultParser(oid, format),
};

const POOL_SIZE = 10;

const globalForPool = globalThis as unknown as { heraldSqlPool?: pg.Pool };

export function sqlPool(): pg.Pool {
  globalForPool.heraldSqlPool ??= new pg.Pool({ connectionString: env().DATABASE_URL, max: POOL_SIZE, types });
  return globalForPool.heraldSqlPool;
}

/** A named (prepared once per connection) statement. */
export async function query<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]): Promise<R[]> {
  const res = await sqlPool().query<R>({ name, text, values });
  return res.rows;
}

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
