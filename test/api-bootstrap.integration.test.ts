import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { freePort } from "../scripts/lib/isolated-run.mjs";
import { tsCommand, webCommand } from "../scripts/lib/processes.mjs";

// HERALD_BOOTSTRAP_API_KEY: scripts/bootstrap.ts (run by `npm run up`) makes that exact string a
// valid operator key, idempotently; a bad value stops start-up naming the variable. Runs against
// its own database, so the default environment it picks is not another test's tenant.

const ROOT = path.resolve(import.meta.dirname, "..");
const KEY = `boot_${randomBytes(24).toString("base64url")}`;

const mainUrl = () => {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: run through npm test");
  return url;
};
const bootUrl = () => {
  const u = new URL(mainUrl());
  u.pathname = `${u.pathname}_boot`;
  return u.toString();
};

async function admin<T>(fn: (c: pg.Client) => Promise<T>, url = mainUrl()): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function bootstrap(extraEnv: Record<string, string>) {
  const [cmd, args] = tsCommand("scripts/bootstrap.ts");
  return spawnSync(cmd, args, { cwd: ROOT, env: { ...process.env, DATABASE_URL: bootUrl(), ...extraEnv }, encoding: "utf8", timeout: 60_000 });
}

describe("HERALD_BOOTSTRAP_API_KEY", () => {
  const dbName = new URL(bootUrl()).pathname.slice(1);
  let web: ReturnType<typeof spawn> | undefined;

  beforeAll(async () => {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${dbName}"`));
    await admin((c) => c.query(`CREATE DATABASE "${dbName}"`));
    const migrate = spawnSync("npx", ["prisma", "migrate", "deploy"], { cwd: ROOT, env: { ...process.env, DATABASE_URL: bootUrl() }, encoding: "utf8" });
    expect(migrate.status, migrate.stderr).toBe(0);
  }, 120_000);

  afterAll(async () => {
    if (web && web.exitCode === null) {
      const exited = new Promise((r) => web!.once("exit", r));
      web.kill("SIGTERM");
      await exited;
    }
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
  });

  it("is made a working operator key, and running bootstrap again changes nothing", async () => {
    const first = bootstrap({ HERALD_BOOTSTRAP_API_KEY: KEY });
    expect(first.status, first.stderr).toBe(0);
    const out = JSON.parse(first.stdout.trim().split("\n").pop()!) as { environmentId: string; apiKey: string | null };
    expect(out.environmentId).toMatch(/^env_/);
    expect(out.apiKey).toMatch(/^hk_/); // the first-run key, printed once

    const second = bootstrap({ HERALD_BOOTSTRAP_API_KEY: KEY });
    expect(second.status, second.stderr).toBe(0);
    const again = JSON.parse(second.stdout.trim().split("\n").pop()!) as { environmentId: string; apiKey: string | null };
    expect(again.environmentId).toBe(out.environmentId);
    expect(again.apiKey).toBeNull(); // not minted again

    const keys = await admin(
      (c) => c.query<{ name: string; revoked_at: Date | null }>("SELECT name, revoked_at FROM api_key ORDER BY id"),
      bootUrl(),
    );
    expect(keys.rows.map((k) => k.name)).toEqual(["bootstrap", "first run"]);
    expect(keys.rows.every((k) => k.revoked_at === null)).toBe(true);
    // Only a hash is stored, never the key.
    const dump = await admin((c) => c.query("SELECT * FROM api_key"), bootUrl());
    expect(JSON.stringify(dump.rows)).not.toContain(KEY);

    // The exact key authenticates against a server on that database.
    const port = await freePort();
    const [cmd, args] = webCommand(port);
    web = spawn(cmd, args, {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: bootUrl(), PORT: String(port), HERALD_PUBLIC_URL: `http://127.0.0.1:${port}`, NODE_ENV: "production" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const base = `http://127.0.0.1:${port}/api/v1`;
    for (let i = 0; i < 120; i++) {
      try {
        if ((await fetch(`${base}/health/ping`)).ok) break;
      } catch {
        /* starting */
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const ok = await fetch(`${base}/app`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(ok.status).toBe(200);
    const created = await fetch(`${base}/app`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Scripted", uid: "scripted" }),
    });
    expect(created.status).toBe(201);
    const wrong = await fetch(`${base}/app`, { headers: { authorization: `Bearer ${KEY}x` } });
    expect(wrong.status).toBe(401);
  }, 120_000);

  it("a bad value fails start-up with a message naming the variable", () => {
    for (const bad of ["too-short", "has spaces but is long enough to pass the length", `${"x".repeat(31)}`, "ключ".repeat(10)]) {
      expect(() => parseEnv({ DATABASE_URL: mainUrl(), HERALD_ENCRYPTION_KEY: randomBytes(32).toString("base64"), HERALD_BOOTSTRAP_API_KEY: bad })).toThrow(
        /HERALD_BOOTSTRAP_API_KEY/,
      );
    }
    const run = bootstrap({ HERALD_BOOTSTRAP_API_KEY: "too-short" });
    expect(run.status).not.toBe(0);
    expect(run.stderr + run.stdout).toMatch(/HERALD_BOOTSTRAP_API_KEY: must be at least 32 characters/);
  }, 60_000);
});

describe("readiness for the bootstrap credentials", () => {
  const dbName = `${new URL(bootUrl()).pathname.slice(1)}_ready`;
  const readyUrl = () => {
    const u = new URL(mainUrl());
    u.pathname = `/${dbName}`;
    return u.toString();
  };
  let web: ReturnType<typeof spawn> | undefined;

  beforeAll(async () => {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${dbName}"`));
    await admin((c) => c.query(`CREATE DATABASE "${dbName}"`));
    const migrate = spawnSync("npx", ["prisma", "migrate", "deploy"], { cwd: ROOT, env: { ...process.env, DATABASE_URL: readyUrl() }, encoding: "utf8" });
    expect(migrate.status, migrate.stderr).toBe(0);
  }, 120_000);

  afterAll(async () => {
    if (web && web.exitCode === null) {
      const exited = new Promise((r) => web!.once("exit", r));
      web.kill("SIGTERM");
      await exited;
    }
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
  });

  it("/api/v1/health answers 204 only once the bootstrap key and owner work (as a scripted setup waits for it)", async () => {
    // No scripts/bootstrap.ts here: the web process alone applies HERALD_BOOTSTRAP_*.
    const key = `ready_${randomBytes(24).toString("base64url")}`;
    const email = `owner.${Date.now()}@ready.herald.test`;
    const password = `pw-${randomBytes(9).toString("base64url")}`;
    const port = await freePort();
    const [cmd, args] = webCommand(port);
    web = spawn(cmd, args, {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: readyUrl(),
        PORT: String(port),
        HERALD_PUBLIC_URL: `http://127.0.0.1:${port}`,
        NODE_ENV: "production",
        HERALD_BOOTSTRAP_API_KEY: key,
        HERALD_BOOTSTRAP_ADMIN_EMAIL: email,
        HERALD_BOOTSTRAP_ADMIN_PASSWORD: password,
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const base = `http://127.0.0.1:${port}`;
    let status = 0;
    for (let i = 0; i < 240 && status !== 204; i++) {
      try {
        status = (await fetch(`${base}/api/v1/health`)).status;
      } catch {
        /* starting */
      }
      if (status !== 204) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(204);
    // The very next call, with no pause: the key works, and the owner can sign in.
    expect((await fetch(`${base}/api/v1/app`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    const csrfRes = await fetch(`${base}/api/auth/csrf`);
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
    const cookie = csrfRes.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const signIn = await fetch(`${base}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ email, password, csrfToken, json: "true" }).toString(),
    });
    const body = (await signIn.json()) as { url: string };
    expect(new URL(body.url).searchParams.get("error")).toBeNull();
    expect(signIn.headers.getSetCookie().some((c) => c.startsWith("next-auth.session-token="))).toBe(true);
    const owner = await admin(
      (c) => c.query<{ role: string }>(`SELECT m.role FROM environment_membership m JOIN "user" u ON u.id = m.user_id WHERE u.email = $1`, [email]),
      readyUrl(),
    );
    expect(owner.rows).toEqual([{ role: "owner" }]);
  }, 180_000);
});
