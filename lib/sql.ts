import pg from "pg";
import { env } from "./env";
import { handleIdleErrors, pgConnection } from "./pg-connection";
import { processWide } from "./process-wide";

// The hot paths (publish, idempotency keys, delivery claims and attempt records) talk to
// PostgreSQL through node-postgres directly. Their statements are hand-written SQL anyway
// (multi-row, compare-and-set), and Prisma's query compiler costs several milliseconds of CPU per
// raw statement here — more than a whole delivery. Everything else uses the Prisma client
// (lib/db.ts).
//
// Timestamps: the columns are timestamptz, read as Dates; they are written from ISO strings cast
// with `$n::timestamptz`, or with now().

const POOL_SIZE = 10;

export function sqlPool(): pg.Pool {
  return processWide("heraldSqlPool", () =>
    handleIdleErrors(new pg.Pool({ ...pgConnection(env().DATABASE_URL), max: POOL_SIZE }), "sql"),
  );
}

/**
 * A named (prepared once per connection) statement; unnamed (parsed each time) with
 * HERALD_PG_PREPARED_STATEMENTS=false, for poolers that cannot keep one prepared across
 * transactions (PgBouncer older than 1.21 in transaction mode, docs/operations.md#pgbouncer).
 */
export async function query<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]): Promise<R[]> {
  const res = await sqlPool().query<R>(env().HERALD_PG_PREPARED_STATEMENTS ? { name, text, values } : { text, values });
  return res.rows;
}

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
