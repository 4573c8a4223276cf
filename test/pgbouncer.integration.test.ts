import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPgBouncer } from "../scripts/lib/pgbouncer.mjs";
import { startStack, type Stack } from "./helpers/stack";
import { receiverPool } from "./helpers/receiver";
import { makeApp, makeEndpoint, publish } from "./helpers/delivery";
import { expectDatabaseAgreesWithReceiver } from "./helpers/agreement";

// Herald behind PgBouncer 1.18 (Debian 12's) in transaction pooling, run exactly as
// docs/operations.md#pgbouncer says: HERALD_PG_PREPARED_STATEMENTS=false, PgBouncer ignoring the
// `options` startup parameter, the database's own zone set to UTC. Web and worker both go through
// it (a pool of 10 server connections shared by every process) for publish with idempotency keys,
// delivery and the API's reads; migrations went to PostgreSQL directly.

describe("through PgBouncer in transaction pooling", () => {
  let bouncer: Awaited<ReturnType<typeof startPgBouncer>>;
  let s: Stack;
  const receivers = receiverPool();
  const viaBouncer = { HERALD_PG_PREPARED_STATEMENTS: "false" };

  beforeAll(async () => {
    bouncer = await startPgBouncer(process.env.DATABASE_URL!);
    s = await startStack({
      database: {
        processUrl: (url) => bouncer.via(url),
        prepare: async (url) => {
          const c = new pg.Client({ connectionString: url });
          await c.connect();
          await c.query(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET timezone TO 'UTC'`);
          await c.end();
        },
      },
      webEnv: viaBouncer,
      workerEnv: { ...viaBouncer, HERALD_DELIVERY_SWEEP_MS: "1000" },
    });
    s.startWorker();
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await bouncer?.stop();
    await receivers.closeAll();
  });

  it("publishes (with idempotency keys), delivers and reads back, with correct timestamps", async () => {
    const rx = await receivers.start();
    const appId = await makeApp(s.api);
    const ep = await makeEndpoint(s.api, appId, { url: `${rx.url}/0` });
    const count = 60;
    const before = Date.now();
    await Promise.all(Array.from({ length: count }, (_, i) => publish(s.api, appId, { n: i })));
    // The same idempotency key from two requests: one message, the second gets the first's answer.
    const a = await s.api("POST", `/app/${appId}/msg`, { eventType: "order.paid", payload: { k: 1 } }, { "idempotency-key": "pgb-1" });
    const b = await s.api("POST", `/app/${appId}/msg`, { eventType: "order.paid", payload: { k: 1 } }, { "idempotency-key": "pgb-1" });
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(b.body.id).toBe(a.body.id);

    await expectDatabaseAgreesWithReceiver(s, appId, [ep.id], rx, count + 1, 60_000);
    // Timestamps written and read through PgBouncer are right (a session in another zone would
    // shift them by its offset).
    const msg = await s.api("GET", `/app/${appId}/msg/${String(a.body.id)}`);
    const at = Date.parse(String(msg.body.timestamp));
    expect(Math.abs(at - before)).toBeLessThan(60_000);

    // And the processes' traffic did go through PgBouncer.
    const admin = new pg.Client({ connectionString: bouncer.adminUrl() });
    await admin.connect();
    const stats = (await admin.query("SHOW STATS")).rows as { database: string; total_xact_count: string }[];
    await admin.end();
    const ours = stats.filter((r) => r.database.includes("_iso_"));
    expect(ours.reduce((n, r) => n + Number(r.total_xact_count), 0)).toBeGreaterThan(count);
  }, 120_000);
});
