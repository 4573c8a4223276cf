#!/usr/bin/env node
// npm test — every test, from a fresh clone: installs what it needs, makes sure PostgreSQL and
// Redis are up, creates its own database (never the one `npm run up` uses), then runs lint,
// typecheck, the Vitest suites (unit + integration, against a built server and a real worker)
// and the Playwright e2e suite on system Chromium. Cleans up its database and Redis keys.
//
//   npm test                     everything
//   npm test -- --vitest [files]  only Vitest (optionally some files), skips lint/e2e
//   npm test -- --e2e [files]     only Playwright
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { createServer } from "node:net";
import { randomBytes } from "node:crypto";
import { bold, ensureDependencies, ensurePrismaClient, fail, green, isDebian, isRoot, pruneBuildIncludes, readDotEnv, red, root, run, runAsync, step } from "./lib/shell.mjs";

const argv = process.argv.slice(2);
const mode = argv[0] === "--vitest" ? "vitest" : argv[0] === "--e2e" ? "e2e" : "all";
const files = mode === "all" ? [] : argv.slice(1);

const started = Date.now();
ensureDependencies();

const CHROMIUM = "/usr/bin/chromium";
if (mode !== "vitest" && !existsSync(CHROMIUM)) {
  if (isRoot() && isDebian()) {
    step("installing Chromium for the e2e suite (apt-get install chromium)");
    run("apt-get", ["update", "-qq"], { quiet: true });
    run("apt-get", ["install", "-y", "-qq", "chromium"], { quiet: true, env: { DEBIAN_FRONTEND: "noninteractive" } });
  } else fail(`The e2e suite needs Chromium at ${CHROMIUM}: sudo apt-get install -y chromium`);
}

const { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, dropDatabase, ensureDatabase, ensurePostgres, ensureRedis } = await import("./lib/services.mjs");
const dotenv = readDotEnv();
const redisUrl = process.env.REDIS_URL ?? dotenv.REDIS_URL ?? DEFAULT_REDIS_URL;
await ensureRedis(redisUrl);
const baseDb = process.env.DATABASE_URL ?? dotenv.DATABASE_URL ?? DEFAULT_DATABASE_URL;
const serverUrl = await ensurePostgres(baseDb, { explicit: Boolean(process.env.DATABASE_URL ?? dotenv.DATABASE_URL) });

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const runId = `${process.pid}_${Date.now().toString(36)}`;
const testDb = new URL(serverUrl);
testDb.pathname = `/herald_test_${runId}`;
const env = {
  NODE_ENV: "test",
  NEXT_TELEMETRY_DISABLED: "1",
  DATABASE_URL: testDb.toString(),
  REDIS_URL: redisUrl,
  HERALD_REDIS_PREFIX: `herald-test-${runId}`,
  HERALD_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  // Test receivers are real HTTP servers on 127.0.0.1; tests of the guard use other loopback addresses.
  HERALD_ALLOW_PRIVATE_NETWORKS: "127.0.0.1/32",
  // Its own build folder: parallel runs and a running `npm run up` never see each other's build.
  HERALD_NEXT_DIST_DIR: `.next-test-${runId}`,
  HERALD_DATA_DIR: `.data/test-${runId}`,
  LOG_LEVEL: "warn",
  PLAYWRIGHT_BROWSERS_PATH: "0",
  HERALD_E2E_PORT: String(await freePort()),
};
// The environment of the caller must not leak settings (e.g. a developer's PORT) into tests.
for (const k of Object.keys(process.env)) if (k.startsWith("HERALD_") || k === "PORT") delete process.env[k];
Object.assign(process.env, env);

let code = 0;
const phases = [];
async function phase(name, fn) {
  const t = Date.now();
  step(bold(name));
  try {
    await fn();
    phases.push(`${green("✔")} ${name} ${((Date.now() - t) / 1000).toFixed(0)}s`);
  } catch (e) {
    phases.push(`${red("✖")} ${name}`);
    console.error(red(e.message));
    code = 1;
  }
}

try {
  await ensureDatabase(env.DATABASE_URL);
  ensurePrismaClient(env);
  run("npx", ["prisma", "migrate", "deploy"], { quiet: true, env });

  if (mode === "all") {
    await phase("lint", () => runAsync("npx", ["eslint", "--max-warnings=0", "."]));
    await phase("typecheck", () => runAsync("npx", ["tsc", "--noEmit"]));
  }
  if (mode !== "all" || code === 0) {
    await phase("build", () => runAsync("npx", ["next", "build"], { env: { NODE_ENV: "production" } }));
    pruneBuildIncludes();
    if (mode !== "e2e") await phase("vitest", () => runAsync("npx", ["vitest", "run", ...files]));
    if (mode !== "vitest") await phase("e2e (playwright)", () => runAsync("npx", ["playwright", "test", ...files]));
  }
} finally {
  rmSync(path.join(root, env.HERALD_NEXT_DIST_DIR), { recursive: true, force: true });
  rmSync(path.join(root, env.HERALD_DATA_DIR), { recursive: true, force: true });
  await dropDatabase(env.DATABASE_URL).catch(() => {});
  try {
    const { Redis } = await import("ioredis");
    const r = new Redis(redisUrl, { lazyConnect: true });
    await r.connect();
    let cursor = "0";
    do {
      const [next, keys] = await r.scan(cursor, "MATCH", `${env.HERALD_REDIS_PREFIX}*`, "COUNT", 1000);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== "0");
    r.disconnect();
  } catch {
    /* best effort */
  }
}

console.log(`\n${phases.join("\n")}\n${code === 0 ? green("all tests passed") : red("tests failed")} in ${((Date.now() - started) / 60000).toFixed(1)} min`);
process.exit(code);
