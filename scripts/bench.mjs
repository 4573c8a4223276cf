#!/usr/bin/env node
// npm run bench — the benchmarks (not tests): prepares its own database, Redis prefix and build,
// like npm test, then runs each scripts/bench/*.ts in turn and prints their figures.
//   npm run bench                 every benchmark
//   npm run bench -- publish      only scripts/bench/publish.ts
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { bold, ensureDependencies, ensurePrismaClient, pruneBuildIncludes, readDotEnv, root, run, runAsync, step } from "./lib/shell.mjs";

ensureDependencies();
const { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, dropDatabase, ensureDatabase, ensurePostgres, ensureRedis } = await import("./lib/services.mjs");
const dotenv = readDotEnv();
const redisUrl = process.env.REDIS_URL ?? dotenv.REDIS_URL ?? DEFAULT_REDIS_URL;
await ensureRedis(redisUrl);
const serverUrl = await ensurePostgres(process.env.DATABASE_URL ?? dotenv.DATABASE_URL ?? DEFAULT_DATABASE_URL, {
  explicit: Boolean(process.env.DATABASE_URL ?? dotenv.DATABASE_URL),
});

const runId = `${process.pid}_${Date.now().toString(36)}`;
const db = new URL(serverUrl);
db.pathname = `/herald_bench_${runId}`;
const env = {
  NODE_ENV: "production",
  NEXT_TELEMETRY_DISABLED: "1",
  DATABASE_URL: db.toString(),
  REDIS_URL: redisUrl,
  HERALD_REDIS_PREFIX: `herald-bench-${runId}`,
  HERALD_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  HERALD_ALLOW_PRIVATE_NETWORKS: "127.0.0.1/32",
  HERALD_NEXT_DIST_DIR: `.next-bench-${runId}`,
  HERALD_DATA_DIR: `.data/bench-${runId}`,
  LOG_LEVEL: "error",
};
for (const k of Object.keys(process.env)) if (k.startsWith("HERALD_") || k === "PORT") delete process.env[k];
Object.assign(process.env, env);

const only = process.argv.slice(2);
const benches = readdirSync(path.join(root, "scripts/bench"))
  .filter((f) => f.endsWith(".ts") && f !== "harness.ts")
  .map((f) => f.replace(/\.ts$/, ""))
  .filter((b) => only.length === 0 || only.includes(b))
  .sort();

try {
  await ensureDatabase(env.DATABASE_URL);
  ensurePrismaClient(env);
  run("npx", ["prisma", "migrate", "deploy"], { quiet: true, env });
  step("building (next build)");
  run("npx", ["next", "build"], { quiet: true, env });
  pruneBuildIncludes();
  for (const b of benches) {
    console.log(`\n${bold(`== ${b} ==`)}`);
    await runAsync(process.execPath, ["--import", "tsx", `scripts/bench/${b}.ts`]);
  }
} finally {
  rmSync(path.join(root, env.HERALD_NEXT_DIST_DIR), { recursive: true, force: true });
  if (existsSync(path.join(root, env.HERALD_DATA_DIR))) rmSync(path.join(root, env.HERALD_DATA_DIR), { recursive: true, force: true });
  await dropDatabase(env.DATABASE_URL).catch(() => {});
}
