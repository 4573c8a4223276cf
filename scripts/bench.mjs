#!/usr/bin/env node
// npm run bench — the benchmarks (not tests): prepares its own database, Redis prefix and build,
// like npm test, then runs each scripts/bench/*.ts in turn and prints their figures.
//   npm run bench                 every benchmark
//   npm run bench -- publish      only scripts/bench/publish.ts
import { readdirSync } from "node:fs";
import path from "node:path";
import { bold, ensureDependencies, pruneBuildIncludes, root, run, runAsync, step } from "./lib/shell.mjs";
import { isolatedRun } from "./lib/isolated-run.mjs";

ensureDependencies();
const isolated = await isolatedRun("bench", { NODE_ENV: "production", LOG_LEVEL: "error" });
const env = isolated.env;

const only = process.argv.slice(2);
const benches = readdirSync(path.join(root, "scripts/bench"))
  .filter((f) => f.endsWith(".ts") && f !== "harness.ts")
  .map((f) => f.replace(/\.ts$/, ""))
  .filter((b) => only.length === 0 || only.includes(b))
  .sort();

try {
  await isolated.prepare();
  step("building (next build)");
  run("npx", ["next", "build"], { quiet: true, env });
  pruneBuildIncludes();
  for (const b of benches) {
    console.log(`\n${bold(`== ${b} ==`)}`);
    await runAsync(process.execPath, ["--import", "tsx", `scripts/bench/${b}.ts`]);
  }
} finally {
  await isolated.cleanup();
}
