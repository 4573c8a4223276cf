// The throwaway world of one `npm test` or `npm run bench` run: PostgreSQL and Redis made sure
// of, a database, a Redis key prefix, a build folder and a data folder of its own (so parallel
// runs and a running `npm run up` never see each other), the caller's HERALD_* settings kept out,
// and everything removed again afterwards.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { tmpdir } from "node:os";
import { randomBytes, randomInt } from "node:crypto";
import { ensurePrismaClient, readDotEnv, root, run } from "./shell.mjs";

/**
 * A port for a server a test or bench is about to start. The server starts seconds later (a
 * Next.js web process), so a port the kernel handed out for `listen(0)` and that was closed
 * again could be handed to a concurrent suite meanwhile; CI once had two suites' web servers
 * given the same one, and one suite's requests reached the other's server (a 401). So each port
 * is reserved with a file created exclusively, holding the reserving process's pid: it stays
 * reserved while that process lives (`npm test` reserves the e2e port before its first phase)
 * and is released when it exits. Ports are taken below Linux's ephemeral range (32768+), where
 * outgoing connections take their local ports, so no client connection can take one either.
 */
const PORTS_DIR = path.join(tmpdir(), `herald-test-ports-${process.getuid?.() ?? "user"}`);
const PORT_RANGE = { from: 20_000, size: 12_000 };
const mine = new Set();
process.once("exit", () => {
  for (const file of mine) rmSync(file, { force: true });
});

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
};

/** Creates the reservation, or takes over one whose process is gone; false: someone holds it. */
function reserve(port) {
  const file = path.join(PORTS_DIR, String(port));
  try {
    writeFileSync(file, String(process.pid), { flag: "wx" });
    mine.add(file);
    return true;
  } catch (e) {
    if (e.code !== "EEXIST") throw e;
  }
  const holder = () => {
    try {
      return Number(readFileSync(file, "utf8"));
    } catch {
      return 0;
    }
  };
  // (0: being written or taken over right now.)
  const before = holder();
  if (!before || alive(before)) return false;
  // Its process is gone (killed: a clean exit removes its files). One taker at a time, under a
  // lock directory (mkdir is atomic), which then checks again that nobody took it meanwhile.
  const lock = `${file}.lock`;
  try {
    mkdirSync(lock);
  } catch {
    return false;
  }
  try {
    if (holder() !== before) return false;
    writeFileSync(file, String(process.pid));
    mine.add(file);
    return true;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function canListen(port) {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

export async function freePort() {
  mkdirSync(PORTS_DIR, { recursive: true });
  for (let i = 0; i < 1_000; i++) {
    const port = PORT_RANGE.from + randomInt(PORT_RANGE.size);
    if (reserve(port) && (await canListen(port))) return port;
  }
  throw new Error(`no free port between ${PORT_RANGE.from} and ${PORT_RANGE.from + PORT_RANGE.size} (reservations in ${PORTS_DIR})`);
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
