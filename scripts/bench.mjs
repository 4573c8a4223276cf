#!/usr/bin/env node
// npm run bench — the benchmarks (not tests): prepares its own database, Redis prefix and build,
// like npm test, then runs each scripts/bench/*.ts in turn and prints their figures.
//   npm run bench                 every benchmark
//   npm run bench -- publish      only scripts/bench/publish.ts
//   BENCH_RUNS=3 (default)        runs of delivery and publish: each figure is printed with every
//                                 run and their median (a single run on a shared machine says little)
//   BENCH_DRAIN_ONLY=1            delivery measures only the raw rate and the one-endpoint drain
//   BENCH_CPU_PROF=<dir>          writes V8 CPU profiles of the web and worker processes there
//   BENCH_TIMELINE=1              delivery prints each latency phase second by second (latency, CPU)
//   BENCH_BACKLOG=<n>             delivery's drain backlog (default 20000)
// A benchmark that reports figures writes one JSON object per run to BENCH_RESULT_FILE: a flat
// map of figure name -> number (the order of the keys is the order of the table).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bold, ensureDependencies, pruneBuildIncludes, root, run, runAsync, step } from "./lib/shell.mjs";
import { isolatedRun } from "./lib/isolated-run.mjs";

const REPEATED = new Set(["delivery", "publish"]);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));

ensureDependencies();
const isolated = await isolatedRun("bench", { NODE_ENV: "production", LOG_LEVEL: "error" });
const env = isolated.env;

const only = process.argv.slice(2);
const benches = readdirSync(path.join(root, "scripts/bench"))
  .filter((f) => f.endsWith(".ts") && f !== "harness.ts")
  .map((f) => f.replace(/\.ts$/, ""))
  .filter((b) => only.length === 0 || only.includes(b))
  .sort();

const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const show = (n) => (!Number.isFinite(n) ? "n/a" : Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2));

function table(name, runs) {
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r)))];
  const rows = keys.map((k) => [k, ...runs.map((r) => show(r[k])), show(median(runs.map((r) => r[k])))]);
  const head = ["figure", ...runs.map((_, i) => `run ${i + 1}`), `median of ${runs.length}`];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ");
  console.log(`\n${bold(`${name}: ${runs.length} runs`)}`);
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

const scratch = mkdtempSync(path.join(tmpdir(), "herald-bench-"));
try {
  await isolated.prepare();
  // The scale benchmark starts workers only (no web server), so it needs no build.
  if (benches.some((b) => b !== "scale")) {
    step("building (next build)");
    run("npx", ["next", "build"], { quiet: true, env });
    pruneBuildIncludes();
  }
  for (const b of benches) {
    const runs = REPEATED.has(b) ? RUNS : 1;
    const results = [];
    for (let i = 1; i <= runs; i++) {
      console.log(`\n${bold(`== ${b}${runs > 1 ? ` (run ${i} of ${runs})` : ""} ==`)}`);
      const file = path.join(scratch, `${b}-${i}.json`);
      await runAsync(process.execPath, ["--import", "tsx", `scripts/bench/${b}.ts`], { env: { BENCH_RESULT_FILE: file } });
      try {
        results.push(JSON.parse(readFileSync(file, "utf8")));
      } catch {
        /* a benchmark without figures */
      }
    }
    if (results.length > 0) table(b, results);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
  await isolated.cleanup();
}
