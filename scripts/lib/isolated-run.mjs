// The throwaway world of one `npm test` or `npm run bench` run: PostgreSQL and Redis made sure
// of, a database, a Redis key prefix, a build folder and a data folder of its own (so parallel
// runs and a running `npm run up` never see each other), the caller's HERALD_* settings kept out,
// and everything removed again afterwards.
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { ensurePrismaClient, readDotEnv, root, run } from "./shell.mjs";

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Sets process.env for a run of `kind` ("test", "bench") and returns it, with `prepare()` (create
 * the database, generate the Prisma client, migrate) and `cleanup()`.
 */
export async function isolatedRun(kind, settings) {
  const { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, dropDatabase, ensureDatabase, ensurePostgres, ensureRedis } = await import("./services.mjs");
  const dotenv = readDotEnv();
  const redisUrl = process.env.REDIS_URL ?? dotenv.REDIS_URL ?? DEFAULT_REDIS_URL;
  const redisSettings = Object.fromEntries(
    ["HERALD_REDIS_MODE", "HERALD_REDIS_SENTINEL_NAME", "HERALD_REDIS_SENTINEL_PASSWORD"]
      .map((k) => [k, process.env[k] ?? dotenv[k]])
      .filter(([, v]) => v),
  );
  await ensureRedis(redisUrl, {
    mode: redisSettings.HERALD_REDIS_MODE,
    sentinelName: redisSettings.HERALD_REDIS_SENTINEL_NAME,
    sentinelPassword: redisSettings.HERALD_REDIS_SENTINEL_PASSWORD,
  });
  const serverUrl = await ensurePostgres(process.env.DATABASE_URL ?? dotenv.DATABASE_URL ?? DEFAULT_DATABASE_URL, {
    explicit: Boolean(process.env.DATABASE_URL ?? dotenv.DATABASE_URL),
  });

  const runId = `${process.pid}_${Date.now().toString(36)}`;
  const db = new URL(serverUrl);
  db.pathname = `/herald_${kind}_${runId}`;
  const env = {
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: db.toString(),
    REDIS_URL: redisUrl,
    ...redisSettings,
    HERALD_REDIS_PREFIX: `herald-${kind}-${runId}`,
    HERALD_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    // Receivers are real HTTP servers on 127.0.0.1; tests of the SSRF guard use other loopback addresses.
    HERALD_ALLOW_PRIVATE_NETWORKS: "127.0.0.1/32",
    HERALD_NEXT_DIST_DIR: `.next-${kind}-${runId}`,
    HERALD_DATA_DIR: `.data/${kind}-${runId}`,
    ...settings,
  };
  // The caller's environment must not leak settings (e.g. a developer's PORT) into the run.
  for (const k of Object.keys(process.env)) if (k.startsWith("HERALD_") || k === "PORT") delete process.env[k];
  Object.assign(process.env, env);

  return {
    env,
    async prepare() {
      await ensureDatabase(env.DATABASE_URL);
      ensurePrismaClient(env);
      run("npx", ["prisma", "migrate", "deploy"], { quiet: true, env });
    },
    async cleanup() {
      rmSync(path.join(root, env.HERALD_NEXT_DIST_DIR), { recursive: true, force: true });
      rmSync(path.join(root, env.HERALD_DATA_DIR), { recursive: true, force: true });
      await dropDatabase(env.DATABASE_URL).catch(() => {});
      await deleteKeys(env, env.HERALD_REDIS_PREFIX).catch(() => {});
    },
  };
}

/**
 * Deletes every Redis key under `prefix` (a run's, or a private test stack's): Herald's own keys
 * (`prefix:...`) and BullMQ's (`{prefix}:...`). `redis` is a URL (standalone) or an environment
 * with REDIS_URL and HERALD_REDIS_MODE (a cluster: every master is scanned).
 */
export async function deleteKeys(redis, prefix) {
  const { createRedisClient, masterConnections, topologyFromEnv } = await import("../../lib/queue/redis-topology.mjs");
  const topology = topologyFromEnv(typeof redis === "string" ? { REDIS_URL: redis } : redis);
  const client = createRedisClient(topology, { lazyConnect: true });
  client.on("error", () => {});
  await client.connect();
  try {
    for (const node of masterConnections(client))
      for (const pattern of [`${prefix}*`, `{${prefix}}*`]) {
        let cursor = "0";
        do {
          const [next, keys] = await node.scan(cursor, "MATCH", pattern, "COUNT", 1000);
          cursor = next;
          // One key per DEL: on a cluster, keys of one node may still be in different slots.
          await Promise.all(keys.map((k) => node.del(k)));
        } while (cursor !== "0");
      }
  } finally {
    client.disconnect();
  }
}
