#!/usr/bin/env node
// npm test — every test, from a fresh clone: installs what it needs, makes sure PostgreSQL and
// Redis are up, creates its own database (never the one `npm run up` uses), then runs lint,
// typecheck, the Vitest suites (unit + integration, against a built server and a real worker)
// and the Playwright e2e suite on system Chromium. Cleans up its database and Redis keys.
//
//   npm test                     everything
//   npm test -- --vitest [files]  only Vitest (optionally some files), skips lint/e2e
//   npm test -- --e2e [files]     only Playwright
import { existsSync } from "node:fs";
import { bold, ensureDependencies, fail, green, isDebian, isRoot, pruneBuildIncludes, red, run, runAsync, step } from "./lib/shell.mjs";
import { freePort, isolatedRun } from "./lib/isolated-run.mjs";

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

const isolated = await isolatedRun("test", {
  NODE_ENV: "test",
  LOG_LEVEL: "warn",
  PLAYWRIGHT_BROWSERS_PATH: "0",
  HERALD_E2E_PORT: String(await freePort()),
});

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
  await isolated.prepare();

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
  await isolated.cleanup();
}

console.log(`\n${phases.join("\n")}\n${code === 0 ? green("all tests passed") : red("tests failed")} in ${((Date.now() - started) / 60000).toFixed(1)} min`);
process.exit(code);
