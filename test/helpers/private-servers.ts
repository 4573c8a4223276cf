import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../scripts/lib/isolated-run.mjs";

// A PostgreSQL and a Redis of a suite's own, on free loopback ports in a temporary folder, so the
// suite may restart, kill or fail them over without disturbing any other suite or the machine's
// shared services. PostgreSQL is the installed one (initdb + pg_ctl); it refuses to run as root,
// so as root its binaries run as the `postgres` user. Redis is the installed redis-server, without
// persistence (a restart loses every key, as the machine's own Redis would).

const PG_BIN = process.env.HERALD_TEST_PG_BIN ?? "/usr/lib/postgresql/15/bin";
const asRoot = process.getuid?.() === 0;

/**
 * Runs a PostgreSQL tool. Asynchronously: the suite's publishers must keep running while a
 * restart or failover is under way (a spawnSync would freeze them for exactly the outage).
 */
function pgTool(tool: string, args: string[], opts: { allowFail?: boolean } = {}): Promise<void> {
  const bin = path.join(PG_BIN, tool);
  const [cmd, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  return new Promise((resolve, reject) => {
    execFile(cmd, argv, { encoding: "utf8", timeout: 120_000 }, (err, stdout, stderr) => {
      if (err && !opts.allowFail) reject(new Error(`${tool} ${args.join(" ")} failed:\n${stdout}\n${stderr}`));
      else resolve();
    });
  });
}

function privateDir(label: string) {
  const dir = mkdtempSync(path.join(tmpdir(), `herald-${label}-`));
  if (asRoot) chownSync(dir, Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim()), 0);
  chmodSync(dir, 0o700);
  return dir;
}

export type PrivatePostgres = Awaited<ReturnType<typeof startPostgres>>;

/**
 * A PostgreSQL cluster of its own (trust auth, user postgres). `url` points at its `postgres`
 * database. `standby()` makes a streaming replica (synchronous: a commit the primary acknowledged
 * is on the replica too), and `failover()` crashes the primary and promotes that replica onto the
 * primary's port, so clients on the same URL find a new primary.
 */
export async function startPostgres() {
  const dir = privateDir("pg");
  const port = await freePort();
  let data = path.join(dir, "data");
  await pgTool("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  // Room for two web processes, workers, the suite's own clients, and a replica.
  appendFileSync(
    path.join(data, "postgresql.conf"),
    "\nmax_connections = 200\nfsync = off\nwal_level = replica\nmax_wal_senders = 4\nwal_keep_size = '64MB'\n",
  );
  const options = (p: number) => `-p ${p} -k ${dir} -c listen_addresses=127.0.0.1`;
  const ctl = (action: string, extra: string[] = [], dataDir = data, p = port) =>
    pgTool("pg_ctl", ["-D", dataDir, "-o", options(p), "-l", path.join(dir, `log-${p}`), "-w", "-t", "60", action, ...extra]);
  await ctl("start");

  let replica: { data: string; port: number } | null = null;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    /**
     * Stops (`fast` ends sessions with 57P01, `immediate` is a crash and then recovery), stays
     * down for `downMs`, starts again.
     */
    async restart(mode: "fast" | "immediate" = "fast", downMs = 0) {
      await ctl("stop", ["-m", mode]);
      if (downMs) await new Promise((res) => setTimeout(res, downMs));
      await ctl("start");
    },
    stop: (mode: "fast" | "immediate" = "fast") => ctl("stop", ["-m", mode]),
    start: () => ctl("start"),
    /** A synchronous streaming replica on a port of its own (see `failover`). */
    async standby() {
      const rport = await freePort();
      const rdata = path.join(dir, "replica");
      appendFileSync(path.join(data, "postgresql.conf"), "\nsynchronous_standby_names = '*'\n");
      await ctl("reload");
      await pgTool("pg_basebackup", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-D", rdata, "-R", "-X", "stream", "--checkpoint=fast", "--no-sync"]);
      await ctl("start", [], rdata, rport);
      replica = { data: rdata, port: rport };
    },
    /**
     * The primary crashes (immediate stop); the replica, which has every commit the primary
     * acknowledged, is moved onto the primary's port and promoted. Returns how long clients had
     * no server (ms).
     */
    async failover(downMs = 0): Promise<number> {
      if (!replica) throw new Error("standby() first");
      const r = replica;
      const t0 = Date.now();
      await ctl("stop", ["-m", "immediate"]);
      // The time it takes to notice the primary is gone, with no server on the URL.
      if (downMs) await new Promise((res) => setTimeout(res, downMs));
      await ctl("stop", ["-m", "fast"], r.data, r.port);
      // It stays a replica of nobody until promoted; no longer waiting for a synchronous standby.
      writeFileSync(path.join(r.data, "postgresql.auto.conf"), "synchronous_standby_names = ''\n");
      await ctl("start", [], r.data, port);
      await ctl("promote", [], r.data, port);
      data = r.data;
      replica = null;
      return Date.now() - t0;
    },
    async close() {
      if (replica) await pgTool("pg_ctl", ["-D", replica.data, "-m", "immediate", "stop"], { allowFail: true });
      await pgTool("pg_ctl", ["-D", data, "-m", "immediate", "stop"], { allowFail: true });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type PrivateRedis = Awaited<ReturnType<typeof startRedis>>;

/** A redis-server of its own, without persistence; `restart()` loses every key. */
export async function startRedis() {
  const dir = mkdtempSync(path.join(tmpdir(), "herald-redis-"));
  const port = await freePort();
  let child: ChildProcess | null = null;
  const launch = async () => {
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    for (let i = 0; i < 100; i++) {
      if (spawnSync("redis-cli", ["-p", String(port), "ping"], { encoding: "utf8" }).stdout.trim() === "PONG") return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server on port ${port} did not start`);
  };
  const stop = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once("exit", r));
    c.kill("SIGKILL");
    await exited;
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    /** Killed (no persistence: every key is lost); `start()` brings it back, empty, on the same port. */
    stop,
    start: launch,
    /** Killed and started again on the same port, empty. */
    async restart(downMs = 0) {
      await stop();
      if (downMs) await new Promise((r) => setTimeout(r, downMs));
      await launch();
    },
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
