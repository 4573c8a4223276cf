#!/usr/bin/env node
// npm test — every test, from a fresh clone: installs what it needs, makes sure PostgreSQL and
// Redis are up, creates its own database (never the one `npm run up` uses), then runs lint,
// typecheck, the Vitest suites (unit + integration, against a built server and a real worker)
// and the Playwright e2e suite on system Chromium. Cleans up its database and Redis keys.
//
// The time-zone suites then run a second time against a database whose default TimeZone is
// Asia/Tokyo (with their own server and worker), as on a server whose initdb took the host's zone.
// The Redis-mode suites run again on a Redis Cluster (three masters) and on Sentinel (a master, a
// replica, three sentinels), servers this script starts on loopback (scripts/lib/redis-servers.mjs).
//
//   npm test                     everything
//   npm test -- --vitest [files]  only Vitest (optionally some files; those among the time-zone
//                                 suites run in both zones), skips lint/e2e
//   npm test -- --e2e [files]     only Playwright
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bold, ensureDependencies, fail, green, isDebian, isRoot, pruneBuildIncludes, red, root, run, runAsync, step } from "./lib/shell.mjs";
import { freePort, isolatedRun } from "./lib/isolated-run.mjs";
import { startRedisCluster, startRedisSentinel } from "./lib/redis-servers.mjs";
import { hasPgBouncer } from "./lib/pgbouncer.mjs";

const argv = process.argv.slice(2);
const mode = argv[0] === "--vitest" ? "vitest" : argv[0] === "--e2e" ? "e2e" : "all";
const files = mode === "all" ? [] : argv.slice(1);

// Timestamps, schedules and time ranges end to end: deliveries and retries, the delivery
// contract, tasks (recover, bulk retry, replay) and the time-zone checks themselves.
const TZ_ZONE = "Asia/Tokyo";
const TZ_SUITES = [
  "test/time-zones.integration.test.ts",
  "test/delivery-retries.integration.test.ts",
  "test/delivery-contract.integration.test.ts",
  "test/tasks-api.integration.test.ts",
  "test/tasks-replay.integration.test.ts",
  "test/tasks-bulk.integration.test.ts",
];
// Everything whose Redis use differs by mode: the delivery contract, the endpoint gate's scripts,
// workers sharing an endpoint's cap and throttle, and pub/sub (the herald listen relay). Not the
// many-processes suite: what it shares across processes lives in PostgreSQL, but for the sign-in
// counters and the periodic locks (plain commands on one hash-tagged slot in every mode).
const REDIS_MODE_SUITES = [
  "test/delivery-contract.integration.test.ts",
  "lib/delivery/endpoint-gate.test.ts",
  "test/workers-share-endpoint.integration.test.ts",
  "test/herald-listen.integration.test.ts",
];
const sameFile = (a, b) => path.resolve(root, a) === path.resolve(root, b);
const among = (suites) => (files.length === 0 ? suites : suites.filter((s) => files.some((f) => sameFile(f, s))));
const tzSuites = among(TZ_SUITES);
const redisModeSuites = among(REDIS_MODE_SUITES);

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

// The PgBouncer suite runs Herald through Debian's pgbouncer (test/pgbouncer.integration.test.ts).
const wantsPgBouncer = mode !== "e2e" && (files.length === 0 || files.some((f) => sameFile(f, "test/pgbouncer.integration.test.ts")));
if (wantsPgBouncer && !hasPgBouncer()) {
  if (isRoot() && isDebian()) {
    step("installing PgBouncer for the PgBouncer suite (apt-get install pgbouncer)");
    run("apt-get", ["update", "-qq"], { quiet: true });
    run("apt-get", ["install", "-y", "-qq", "pgbouncer"], { quiet: true, env: { DEBIAN_FRONTEND: "noninteractive" } });
  } else fail("The PgBouncer suite needs pgbouncer: sudo apt-get install -y pgbouncer");
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
    // The summary names what failed: a CI log is often read from its end only.
    phases.push(`${red("✖")} ${name}${e.failures?.length ? `\n${e.failures.map((f) => `    ${f}`).join("\n")}` : ""}`);
    console.error(red(e.message));
    code = 1;
  }
}

/** Vitest, with a JSON report beside the usual output, so a failure carries the failed tests' names. */
async function vitest(args, env) {
  const report = path.join(tmpdir(), `herald-vitest-${process.pid}-${Date.now()}.json`);
  try {
    await runAsync("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...args], { env });
  } catch (e) {
    try {
      const { testResults = [] } = JSON.parse(readFileSync(report, "utf8"));
      e.failures = testResults.flatMap((file) => {
        const failed = (file.assertionResults ?? []).filter((a) => a.status === "failed");
        const where = path.relative(root, file.name);
        if (failed.length === 0 && file.status === "failed") return [`${where}: ${String(file.message ?? "failed").split("\n")[0]}`];
        return failed.map((a) => `${where} › ${a.fullName}: ${String(a.failureMessages?.[0] ?? "").split("\n")[0].slice(0, 300)}`);
      });
    } catch {
      /* no report (vitest did not get that far): the error says what happened */
    }
    throw e;
  } finally {
    rmSync(report, { force: true });
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
    if (mode !== "e2e") await phase("vitest", () => vitest(files));
    if (mode !== "e2e" && tzSuites.length > 0)
      await phase(`vitest, database in ${TZ_ZONE}`, () =>
        vitest(tzSuites, { HERALD_TEST_DB_TIMEZONE: TZ_ZONE }),
      );
    for (const [name, start] of [["Redis Cluster", startRedisCluster], ["Redis Sentinel", startRedisSentinel]])
      if (mode !== "e2e" && redisModeSuites.length > 0)
        await phase(`vitest, ${name}`, async () => {
          const redis = await start();
          try {
            await vitest(redisModeSuites, redis.env);
          } finally {
            await redis.stop();
          }
        });
    if (mode !== "vitest") await phase("e2e (playwright)", () => runAsync("npx", ["playwright", "test", ...files]));
  }
} finally {
  await isolated.cleanup();
}

console.log(`\n${phases.join("\n")}\n${code === 0 ? green("all tests passed") : red("tests failed")} in ${((Date.now() - started) / 60000).toFixed(1)} min`);
process.exit(code);
