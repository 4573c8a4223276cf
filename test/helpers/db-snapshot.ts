import { db } from "@/lib/db";

// A fingerprint of every row an environment owns, in every table (found from the catalog, so
// tables added later are covered): tables with an environment_id column directly, tables with only
// an application_id through the environment's applications. Equal fingerprints before and after
// a burst of bad requests mean nothing was written, not even half of something.

type Fingerprint = Record<string, { rows: number; hash: string | null }>;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function snapshotEnvironment(environmentId: string): Promise<Fingerprint> {
  const columns = await db.$queryRaw<{ table_name: string; column_name: string }[]>`
    SELECT table_name::text AS table_name, column_name::text AS column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND column_name IN ('environment_id', 'application_id')`;
  const byTable = new Map<string, Set<string>>();
  for (const c of columns) byTable.set(c.table_name, (byTable.get(c.table_name) ?? new Set()).add(c.column_name));

  const out: Fingerprint = {};
  const tables = [...byTable.keys(), "environment"].sort();
  for (const table of tables) {
    const cols = byTable.get(table);
    const where =
      table === "environment"
        ? `t.id = $1`
        : cols?.has("environment_id")
          ? `t.environment_id = $1`
          : `t.application_id IN (SELECT id FROM application WHERE environment_id = $1)`;
    const [row] = await db.$queryRawUnsafe<{ rows: bigint; hash: string | null }[]>(
      `SELECT count(*) AS rows, md5(string_agg(t::text, '|' ORDER BY t::text)) AS hash FROM ${ident(table)} t WHERE ${where}`,
      environmentId,
    );
    out[table] = { rows: Number(row?.rows ?? 0), hash: row?.hash ?? null };
  }
  return out;
}
