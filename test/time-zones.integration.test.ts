import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { query } from "@/lib/sql";
import { randomSuffix, testDatabaseTimeZone } from "./helpers/database";

// Timestamps are instants, whatever the zone of the PostgreSQL server or of a session: the
// columns are timestamptz, Herald's two pools pin their sessions to UTC, and the migration that
// made the columns timestamptz kept the existing (UTC) values. `npm test` runs this file, and the
// delivery and task suites, a second time on a database whose default zone is Asia/Tokyo.

const MIGRATIONS = path.resolve(import.meta.dirname, "../prisma/migrations");
const ZONE = "Asia/Tokyo";

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>, options?: string): Promise<T> {
  const c = new pg.Client({ connectionString: url, options });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

describe("time zones", () => {
  it("stores every timestamp column as timestamptz(3)", async () => {
    const cols = await db.$queryRaw<{ col: string; type: string; precision: number }[]>`
      SELECT table_name || '.' || column_name AS col, data_type AS type, datetime_precision AS precision
      FROM information_schema.columns
      WHERE table_schema = current_schema() AND data_type LIKE 'timestamp%' AND table_name <> '_prisma_migrations'
      ORDER BY 1`;
    expect(cols.length).toBeGreaterThan(30);
    expect(cols.filter((c) => c.type !== "timestamp with time zone" || c.precision !== 3)).toEqual([]);
  });

  it("runs both of Herald's pools in UTC, whatever the database's default zone", async () => {
    const [prisma] = await db.$queryRaw<{ TimeZone: string }[]>`SHOW TimeZone`;
    const [hot] = await query<{ TimeZone: string }>("tz_show", "SHOW TimeZone", []);
    expect(prisma?.TimeZone).toBe("UTC");
    expect(hot?.TimeZone).toBe("UTC");
    // In the time-zone run, a session that does not choose its zone really gets another one.
    const zone = testDatabaseTimeZone();
    if (zone) {
      const dflt = await withClient(process.env.DATABASE_URL!, (c) => c.query<{ TimeZone: string }>("SHOW TimeZone"));
      expect(dflt.rows[0]?.TimeZone).toBe(zone);
    }
  });

  it("reads an instant written by a session in another zone (an operator's psql) as that instant", async () => {
    const id = newId("environment");
    await withClient(process.env.DATABASE_URL!, async (c) => {
      await c.query(`SET TimeZone TO '${ZONE}'`);
      await c.query("INSERT INTO environment (id, name, created_at, updated_at) VALUES ($1, 'tz', now(), now())", [id]);
    });
    const viaPrisma = await db.environment.findUniqueOrThrow({ where: { id } });
    const [viaPg] = await query<{ created_at: Date }>("tz_env", "SELECT created_at FROM environment WHERE id = $1", [id]);
    for (const at of [viaPrisma.createdAt, viaPg!.created_at]) expect(Math.abs(at.getTime() - Date.now())).toBeLessThan(60_000);
    // And what Prisma writes, a session in another zone reads as the same instant.
    const written = new Date("2026-03-04T05:06:07.089Z");
    await db.environment.update({ where: { id }, data: { createdAt: written } });
    const epoch = await withClient(process.env.DATABASE_URL!, async (c) => {
      await c.query(`SET TimeZone TO '${ZONE}'`);
      return (await c.query<{ ms: string }>("SELECT (extract(epoch FROM created_at) * 1000)::bigint AS ms FROM environment WHERE id = $1", [id])).rows[0]!.ms;
    });
    expect(Number(epoch)).toBe(written.getTime());
  });

  describe("the timestamptz migration", () => {
    const base = new URL(process.env.DATABASE_URL!);
    const name = `${base.pathname.slice(1)}_${randomSuffix("mig")}`.slice(0, 63);
    const url = Object.assign(new URL(base), { pathname: `/${name}` }).toString();
    const dirs = readdirSync(MIGRATIONS).filter((d) => /^\d+_/.test(d)).sort();
    const target = dirs.findIndex((d) => d.endsWith("_timestamptz"));
    const sql = (d: string) => readFileSync(path.join(MIGRATIONS, d, "migration.sql"), "utf8");

    beforeAll(async () => {
      await withClient(base.toString(), (c) => c.query(`CREATE DATABASE "${name}"`));
    });
    afterAll(async () => {
      await withClient(base.toString(), (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    });

    it("keeps the instants of existing rows, migrated by a session in Asia/Tokyo", async () => {
      expect(target).toBeGreaterThan(0);
      const created = "2026-01-02 03:04:05.678"; // as the old timestamp columns held it: UTC
      const dead = "2026-06-30 23:59:59.999";
      await withClient(url, async (c) => {
        for (const d of dirs.slice(0, target)) await c.query(sql(d));
        await c.query(`INSERT INTO environment (id, name, created_at, updated_at) VALUES ('environment_1', 'old', $1, $1)`, [created]);
        await c.query(`INSERT INTO application (id, environment_id, name, created_at, updated_at)
                       VALUES ('application_1', 'environment_1', 'old', $1, $1)`, [created]);
        await c.query(`INSERT INTO endpoint (id, environment_id, application_id, url, secret_encrypted, created_at, updated_at, failing_since)
                       VALUES ('endpoint_1', 'environment_1', 'application_1', 'https://example.com', 'x', $1, $1, $2)`, [created, dead]);
      });
      await withClient(url, async (c) => {
        await c.query(`SET TimeZone TO '${ZONE}'`);
        await c.query(sql(dirs[target]!));
      });
      const rows = await withClient(
        url,
        (c) =>
          c.query<{ created_at: Date; failing_since: Date }>(
            "SELECT e.created_at, p.failing_since FROM environment e JOIN endpoint p ON p.environment_id = e.id",
          ),
        "-c TimeZone=UTC",
      );
      expect(rows.rows[0]?.created_at.toISOString()).toBe("2026-01-02T03:04:05.678Z");
      expect(rows.rows[0]?.failing_since.toISOString()).toBe("2026-06-30T23:59:59.999Z");
    });
  });
});
