// How Herald's processes connect to PostgreSQL, for both pools: Prisma's adapter (lib/db.ts) and
// node-postgres for the hot paths (lib/sql.ts). Every session runs in UTC, whatever the server's
// default zone (Debian's initdb takes the host's). The columns are timestamptz, so what is stored
// is an instant in any zone; but Prisma's pg adapter sends a Date as UTC digits without an offset
// and reads a timestamptz by dropping its offset, which is only right in a UTC session.
// (An `options` parameter in DATABASE_URL itself would replace this one.)
export const pgConnection = (connectionString: string) => ({ connectionString, options: "-c TimeZone=UTC" });
