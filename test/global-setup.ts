import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { freePort } from "../scripts/lib/isolated-run.mjs";
import { tsCommand, webCommand } from "../scripts/lib/processes.mjs";
import { createDatabase, dropDatabase, testDatabaseTimeZone } from "./helpers/database";

// Starts the built web server and a worker for the integration suites, like production runs
// them: `server.ts` (Next.js) from the test build and `tsx worker/index.ts`, on a free loopback port.
// With HERALD_TEST_DB_TIMEZONE (npm test's time-zone run), they and the suites work on a database
// of their own whose default TimeZone is that zone, not the server's.

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
  }
}

const children: ChildProcess[] = [];

export default async function setup(project: TestProject) {
  const distDir = process.env.HERALD_NEXT_DIST_DIR ?? ".next";
  if (!existsSync(`${distDir}/BUILD_ID`)) throw new Error(`No build in ${distDir}: run the suite with npm test`);
  const zone = testDatabaseTimeZone();
  const databaseUrl = zone
    ? await createDatabase(process.env.DATABASE_URL!, "tz", { timeZone: zone })
    : process.env.DATABASE_URL!;
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HERALD_PUBLIC_URL: baseUrl,
    NODE_ENV: "production" as const,
  };
  for (const [cmd, args] of [webCommand(port), tsCommand("worker/index.ts")])
    children.push(spawn(cmd, args, { env, stdio: ["ignore", "ignore", "inherit"] }));
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/api/v1/health/ping`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await teardown();
      throw new Error("the test server did not start within 60s");
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  project.provide("baseUrl", baseUrl);
  project.provide("databaseUrl", databaseUrl);
  return teardown;

  async function teardown() {
    for (const c of children) c.kill("SIGTERM");
    await Promise.all(children.map((c) => (c.exitCode !== null ? Promise.resolve() : new Promise((r) => c.once("exit", r)))));
    if (zone) await dropDatabase(databaseUrl).catch(() => undefined);
  }
}
