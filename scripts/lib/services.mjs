// Makes sure PostgreSQL and Redis answer: starts local ones that are installed but stopped,
// installs them with apt on Debian/Ubuntu as root, otherwise says exactly what to install.
import { connect } from "node:net";
import { existsSync, readdirSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { appendDotEnv, fail, has, isDebian, isRoot, run, step, yellow } from "./shell.mjs";

export const DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/herald";
export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const INSTALL_HELP = `Herald needs PostgreSQL (14 or newer) and Redis (6.2 or newer).
  Debian/Ubuntu:  sudo apt-get install -y postgresql redis-server
  macOS:          brew install postgresql@16 redis && brew services start postgresql@16 && brew services start redis
  Docker:         docker compose up -d   (uses compose.yaml; then DATABASE_URL=postgresql://herald:herald@127.0.0.1:5432/herald)
Or point DATABASE_URL and REDIS_URL at servers you already run.`;

let aptUpdated = false;
function aptInstall(pkgs) {
  if (!aptUpdated) {
    step("apt-get update");
    run("apt-get", ["update", "-qq"], { quiet: true });
    aptUpdated = true;
  }
  step(`apt-get install -y ${pkgs.join(" ")}`);
  run("apt-get", ["install", "-y", "-qq", ...pkgs], { quiet: true, env: { DEBIAN_FRONTEND: "noninteractive" } });
}

function tcpOpen(host, port, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const sock = connect({ host, port });
    const done = (ok) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once("connect", () => done(true));
    sock.once("error", () => done(false));
  });
}

async function waitFor(check, what, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await sleep(300);
  }
  fail(`${what} did not come up within ${timeoutMs / 1000}s.\n${INSTALL_HELP}`);
}

// ---------- Redis ----------

function redisPing(url) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const sock = connect({ host: u.hostname, port: Number(u.port || 6379) });
    let buf = "";
    sock.setTimeout(1500, () => (sock.destroy(), resolve(false)));
    sock.once("error", () => resolve(false));
    sock.on("data", (d) => {
      buf += d.toString();
      if (buf.includes("\r\n")) {
        sock.destroy();
        // +PONG, or -NOAUTH (a password-protected server is up; ioredis will authenticate).
        resolve(buf.startsWith("+PONG") || buf.startsWith("-NOAUTH"));
      }
    });
    sock.once("connect", () => {
      if (u.password) sock.write(`AUTH ${decodeURIComponent(u.password)}\r\n`);
      sock.write("PING\r\n");
    });
  });
}

function isLocal(url) {
  const host = new URL(url).hostname;
  return host === "127.0.0.1" || host === "localhost" || host === "::1" || host === "[::1]";
}

/**
 * Makes sure Redis answers. `topology` (HERALD_REDIS_MODE and friends) is checked first: a
 * malformed REDIS_URL stops here with the variable's name. A cluster or sentinels must already
 * run (they are never started here); a standalone local server is started or installed.
 */
export async function ensureRedis(url, { mode, sentinelName, sentinelPassword } = {}) {
  const { RedisConfigError, createRedisClient, parseRedisTopology } = await import("../../lib/queue/redis-topology.mjs");
  let topology;
  try {
    topology = parseRedisTopology({ mode, url, sentinelName, sentinelPassword });
  } catch (e) {
    if (e instanceof RedisConfigError) fail(`Invalid configuration: ${e.message}`);
    throw e;
  }
  if (topology.mode !== "standalone") {
    const client = createRedisClient(topology, { lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 1 });
    client.on("error", () => {});
    try {
      await Promise.race([client.connect().then(() => client.ping()), sleep(15_000).then(() => Promise.reject(new Error("no answer within 15 s")))]);
    } catch (e) {
      fail(`Redis (${topology.mode}) at ${topology.nodes.map((n) => `${n.host}:${n.port}`).join(", ")} is not reachable: ${e.message}. Check REDIS_URL${topology.mode === "sentinel" ? " and HERALD_REDIS_SENTINEL_NAME" : ""}.`);
    } finally {
      client.disconnect();
    }
    return;
  }
  if (await redisPing(url)) return;
  if (!isLocal(url)) fail(`Redis at ${url} is not reachable. Check REDIS_URL.`);
  if (!has("redis-server")) {
    if (isRoot() && isDebian()) aptInstall(["redis-server"]);
    else fail(`Redis is not installed.\n${INSTALL_HELP}`);
  }
  if (await redisPing(url)) return; // the package's service may have started it
  step("starting Redis");
  const port = new URL(url).port || "6379";
  const dir = existsSync("/var/lib/redis") ? "/var/lib/redis" : "/tmp";
  run("redis-server", ["--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", port, "--dir", dir], { quiet: true });
  await waitFor(() => redisPing(url), "Redis");
}

// ---------- PostgreSQL ----------

async function pgClient(url) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  return client;
}

/** "ok", "down" (nothing listening), "auth" (password/role refused), "nodb", or another error. */
async function pgProbe(url) {
  try {
    const c = await pgClient(url);
    await c.end();
    return "ok";
  } catch (e) {
    if (e.code === "ECONNREFUSED" || e.code === "ENOTFOUND" || /timeout/i.test(e.message)) return "down";
    if (e.code === "3D000") return "nodb";
    if (e.code === "28P01" || e.code === "28000") return "auth";
    return `error: ${e.message}`;
  }
}

function maintenanceUrl(url) {
  const u = new URL(url);
  u.pathname = "/postgres";
  return u.toString();
}

function startLocalPostgres() {
  if (has("pg_ctlcluster") && existsSync("/etc/postgresql")) {
    for (const version of readdirSync("/etc/postgresql")) {
      step(`starting PostgreSQL ${version}`);
      try {
        run("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "start"], { quiet: true });
      } catch (e) {
        if (!/already running/i.test(String(e.message))) throw e;
      }
    }
    return true;
  }
  if (has("pg_ctl") && process.env.PGDATA) {
    run("pg_ctl", ["start", "-w", "-l", "/tmp/herald-postgres.log"], { quiet: true });
    return true;
  }
  return false;
}

/** As root on Debian, where TCP logins need a password: create a `herald` role for us. */
function createHeraldRole(dbName) {
  const password = randomBytes(18).toString("base64url");
  const sql = `DO $$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'herald') THEN CREATE ROLE herald LOGIN CREATEDB PASSWORD '${password}';
    ELSE ALTER ROLE herald WITH LOGIN CREATEDB PASSWORD '${password}'; END IF; END $$;`;
  run("su", ["postgres", "-c", `psql -v ON_ERROR_STOP=1 -q -c "${sql.replace(/"/g, '\\"').replace(/\$/g, "\\$")}"`], { quiet: true });
  return `postgresql://herald:${password}@127.0.0.1:5432/${dbName}`;
}

/**
 * Returns a DATABASE_URL that works. `explicit` is whether the user chose the URL; when they did
 * not and the default is refused, a role is created (as root) and the URL saved to .env.
 */
export async function ensurePostgres(url, { explicit }) {
  let status = await pgProbe(maintenanceUrl(url));
  if (status === "down" && isLocal(url)) {
    if (!startLocalPostgres()) {
      if (isRoot() && isDebian()) {
        aptInstall(["postgresql"]);
        startLocalPostgres();
      } else fail(`PostgreSQL is not running at ${url} and no local installation was found.\n${INSTALL_HELP}`);
    }
    await waitFor(async () => (await pgProbe(maintenanceUrl(url))) !== "down", "PostgreSQL");
    status = await pgProbe(maintenanceUrl(url));
  }
  if (status === "ok") return url;
  if (status === "auth" && !explicit && isRoot() && has("su") && isLocal(url)) {
    step("PostgreSQL refused the default login; creating a 'herald' role with a generated password");
    const dbName = new URL(url).pathname.slice(1) || "herald";
    const created = createHeraldRole(dbName);
    if ((await pgProbe(maintenanceUrl(created))) !== "ok") fail(`Could not log in to PostgreSQL as the new herald role.`);
    appendDotEnv({ DATABASE_URL: created }, "written by npm run up: a role it created for Herald");
    console.log(yellow(`  saved DATABASE_URL for the new role to .env`));
    return created;
  }
  if (status === "down") fail(`PostgreSQL at ${url} is not reachable. Check DATABASE_URL.\n${INSTALL_HELP}`);
  if (status === "auth") fail(`PostgreSQL refused the login in DATABASE_URL (${redact(url)}). Check the user and password.`);
  fail(`PostgreSQL at ${redact(url)}: ${status}`);
}

export function redact(url) {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}

/** Creates the database named in the URL if it does not exist (C collation, UTF-8). */
export async function ensureDatabase(url) {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/^[A-Za-z0-9_-]+$/.test(name)) fail(`Database name "${name}" in DATABASE_URL must be letters, digits, _ or -.`);
  const c = await pgClient(maintenanceUrl(url));
  try {
    const { rowCount } = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (rowCount === 0) {
      step(`creating database ${name}`);
      await c.query(`CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8'`);
    }
  } finally {
    await c.end();
  }
}

export async function dropDatabase(url) {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const c = await pgClient(maintenanceUrl(url));
  try {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await c.end();
  }
}

export { tcpOpen };
