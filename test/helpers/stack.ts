import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { hashToken } from "@/lib/crypto/tokens";
import { newId } from "@/lib/ids";
import { pgConnection } from "@/lib/pg-connection";
import { tsCommand, webCommand } from "../../scripts/lib/processes.mjs";
import { deleteKeys, freePort } from "../../scripts/lib/isolated-run.mjs";
import { requestJson } from "./http";
import { createDatabase, dropDatabase, randomSuffix, testDatabaseTimeZone } from "./database";

// A private Herald for fault tests: its own database (migrated from scratch, in the run's time
// zone), its own Redis prefix, its own web server and worker processes. The shared test worker
// never sees its tasks or deliveries, and the test may SIGKILL and restart its worker at will.

export type Stack = Awaited<ReturnType<typeof startStack>>;

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Starts a private stack. `workerEnv` adds settings for the worker (e.g. small task batches).
 * Returns an API client with an operator key, a Prisma client on the stack's database, and
 * handles to stop/kill/restart the worker.
 */
export async function startStack(
  opts: {
    workerEnv?: Record<string, string>;
    webEnv?: Record<string, string>;
    captureLogs?: boolean;
    /** A PostgreSQL server (any database's URL) and a Redis of the suite's own (helpers/private-servers.ts). */
    postgresUrl?: string;
    redisUrl?: string;
    /** A Redis topology of the stack's own (REDIS_URL, HERALD_REDIS_MODE, ...: scripts/lib/redis-servers.mjs). */
    redisEnv?: Record<string, string>;
    /**
     * How the processes reach the stack's (migrated) database, e.g. through a PgBouncer, and what
     * to do to it before they start.
     */
    database?: { processUrl?: (url: string) => string; prepare?: (url: string) => Promise<void> };
    /**
     * Runs once the stack's database is migrated and seeded, just before its processes start:
     * e.g. stopping its PostgreSQL or Redis, for processes that must start without them.
     */
    beforeStart?: () => Promise<void>;
  } = {},
) {
  const databaseUrl = await createDatabase(opts.postgresUrl ?? process.env.DATABASE_URL!, randomSuffix("iso"), {
    timeZone: testDatabaseTimeZone(),
  });
  await opts.database?.prepare?.(databaseUrl);
  const prefix = `${process.env.HERALD_REDIS_PREFIX ?? "herald-test"}-iso-${randomBytes(3).toString("hex")}`;
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // A private standalone Redis (redisUrl) is standalone whatever mode the run's Redis is in.
  const redisEnv: Record<string, string> | undefined =
    opts.redisEnv ?? (opts.redisUrl ? { REDIS_URL: opts.redisUrl, HERALD_REDIS_MODE: "standalone" } : undefined);
  const redisUrl = redisEnv?.REDIS_URL ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const env = {
    ...process.env,
    ...redisEnv,
    DATABASE_URL: opts.database?.processUrl?.(databaseUrl) ?? databaseUrl,
    REDIS_URL: redisUrl,
    HERALD_REDIS_PREFIX: prefix,
    PORT: String(port),
    HERALD_PUBLIC_URL: baseUrl,
    HERALD_DATA_DIR: path.join(process.env.HERALD_DATA_DIR ?? ".data", `iso-${prefix.slice(-6)}`),
    NODE_ENV: "production" as const,
    // No metrics listener: the shared test worker already holds the default port.
    HERALD_WORKER_METRICS_PORT: "0",
  };
  const db = new PrismaClient({ adapter: new PrismaPg({ ...pgConnection(databaseUrl), max: 5 }) });

  const environment = await db.environment.create({ data: { id: newId("environment"), name: "stack" } });
  const apiKey = `hk_stack_${randomBytes(24).toString("base64url")}`;
  await db.apiKey.create({
    data: {
      id: newId("apiKey"),
      environmentId: environment.id,
      name: "stack",
      hash: hashToken(apiKey),
      prefix: apiKey.slice(0, 10),
    },
  });

  // With captureLogs, everything both processes print is kept (for "no secret in the logs" checks).
  let logs = "";
  const spawnProc = ([cmd, args]: [string, string[]], extra: Record<string, string> = {}) => {
    const child = spawn(cmd, args, {
      cwd: root,
      env: { ...env, ...extra },
      stdio: opts.captureLogs ? ["ignore", "pipe", "pipe"] : ["ignore", "ignore", "inherit"],
    });
    for (const s of [child.stdout, child.stderr])
      s?.on("data", (b: Buffer) => (logs = (logs + b.toString("utf8")).slice(-5_000_000)));
    return child;
  };
  await opts.beforeStart?.();
  const web = spawnProc(webCommand(port), opts.webEnv);
  const extraWebs: ChildProcess[] = [];
  let worker: ChildProcess | null = null;
  const extraWorkers: ChildProcess[] = [];

  const exited = (c: ChildProcess) =>
    c.exitCode !== null || c.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((r) => c.once("exit", () => r()));

  const stack = {
    baseUrl,
    environmentId: environment.id,
    apiKey,
    db,
    prefix,
    /** The Redis the stack's processes use (its keys start with `prefix`, BullMQ's with `{prefix}`). */
    redisUrl,
    /** REDIS_URL, HERALD_REDIS_MODE and the sentinel settings of the stack (for testRedis). */
    redisEnv: Object.fromEntries([
      ["REDIS_URL", redisUrl],
      ...["HERALD_REDIS_MODE", "HERALD_REDIS_SENTINEL_NAME", "HERALD_REDIS_SENTINEL_PASSWORD"].map((k) => [
        k,
        redisEnv?.[k] ?? process.env[k],
      ]),
    ]) as Record<string, string | undefined>,
    dataDir: env.HERALD_DATA_DIR,
    logs: () => logs,
    startWorker() {
      if (worker && worker.exitCode === null && worker.signalCode === null) throw new Error("worker already running");
      worker = spawnProc(tsCommand("worker/index.ts"), opts.workerEnv);
      return worker;
    },
    /** Starts one more worker process (a cluster of workers); `stop` ends it with SIGTERM. */
    addWorker() {
      // Without a metrics listener: the first worker may hold the port the suite gave it.
      const w = spawnProc(tsCommand("worker/index.ts"), { ...opts.workerEnv, HERALD_WORKER_METRICS_PORT: "0" });
      extraWorkers.push(w);
      return {
        process: w,
        /** SIGKILL: no cleanup at all, its jobs and slots are left as they were. */
        async kill() {
          w.kill("SIGKILL");
          await exited(w);
        },
        async stop() {
          w.kill("SIGTERM");
          await exited(w);
        },
      };
    },
    /** Starts one more web process on the same database and Redis (several web servers behind a balancer). */
    async addWeb() {
      const p = await freePort();
      const extra = spawnProc(webCommand(p), opts.webEnv);
      extraWebs.push(extra);
      const url = `http://127.0.0.1:${p}`;
      await waitForWeb(url, extra, apiKey);
      return url;
    },
    /** The web process and the worker, to check that they are still running. */
    processes: () => ({ web, worker }),
    /** Stops the worker with a signal (SIGKILL: no cleanup at all) and waits for it to exit. */
    async stopWorker(signal: NodeJS.Signals = "SIGTERM") {
      if (!worker) return;
      const w = worker;
      w.kill(signal);
      await exited(w);
      worker = null;
    },
    api: (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) =>
      requestJson(method, `${baseUrl}/api/v1${p}`, apiKey, body, headers),
    async close() {
      const workers = [...(worker ? [worker] : []), ...extraWorkers, ...extraWebs];
      web.kill("SIGTERM");
      for (const w of workers) w.kill("SIGTERM");
      await Promise.all([exited(web), ...workers.map(exited)]);
      await db.$disconnect();
      await dropDatabase(databaseUrl).catch(() => undefined);
      await deleteKeys(env, prefix);
    },
  };

  await waitForWeb(baseUrl, web, apiKey);
  return stack;
}

/**
 * Until the web process answers, and it is this stack's: the process still runs, and the stack's
 * API key is known there (another stack's server on the same port would answer 401).
 */
async function waitForWeb(baseUrl: string, web: ChildProcess, apiKey: string) {
  const running = () => web.exitCode === null && web.signalCode === null;
  for (let i = 0; ; i++) {
    if (!running()) throw new Error(`the stack's web server exited (${web.exitCode ?? web.signalCode}) before it answered on ${baseUrl}`);
    let up = false;
    try {
      up = (await fetch(`${baseUrl}/api/v1/health/ping`)).ok;
    } catch {
      /* starting */
    }
    if (up && running()) {
      const own = await fetch(`${baseUrl}/api/v1/app?limit=1`, { headers: { authorization: `Bearer ${apiKey}` } });
      if (own.status === 401) throw new Error(`another server answers on ${baseUrl}: the stack's API key is unknown there`);
      return;
    }
    if (i > 240) throw new Error("the stack's web server did not start within 60 s");
    await new Promise((r) => setTimeout(r, 250));
  }
}
