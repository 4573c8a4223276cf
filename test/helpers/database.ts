import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";

// Throwaway databases beside the run's own (same server, name prefixed by the run's database):
// the private stacks' and the one the global setup gives a time-zone run. With `timeZone`, the
// database's default TimeZone is set before migrating, as a server whose initdb took the host's
// zone would have it: every session that does not choose its own zone runs in it.

const root = path.resolve(import.meta.dirname, "../..");

/** The zone the run's databases are set to (`npm test` runs some suites again in Asia/Tokyo). */
export const testDatabaseTimeZone = () => process.env.HERALD_TEST_DB_TIMEZONE || null;

async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Creates and migrates `<base database>_<suffix>`, returning its URL. */
export async function createDatabase(
  baseUrl: string,
  suffix: string,
  opts: { timeZone?: string | null } = {},
): Promise<string> {
  const base = new URL(baseUrl);
  const name = `${base.pathname.slice(1)}_${suffix}`.slice(0, 63);
  await admin(base.toString(), async (c) => {
    await c.query(`CREATE DATABASE "${name}"`);
    if (opts.timeZone) await c.query(`ALTER DATABASE "${name}" SET timezone TO ${pg.escapeLiteral(opts.timeZone)}`);
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url.toString() },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`migrating ${name} failed:\n${r.stdout}\n${r.stderr}`);
  return url.toString();
}

export const randomSuffix = (label: string) => `${label}_${randomBytes(3).toString("hex")}`;

export async function dropDatabase(url: string) {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  u.pathname = "/postgres";
  await admin(u.toString(), (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
