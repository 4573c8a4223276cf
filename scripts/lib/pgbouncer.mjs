// A private PgBouncer in transaction pooling on a free loopback port, in front of the PostgreSQL
// of `upstreamUrl`, configured as docs/operations.md#pgbouncer says (the `options` startup
// parameter ignored; the zone comes from the database). For the test that proves that recipe.
import { spawn, execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./isolated-run.mjs";

export const PGBOUNCER = "pgbouncer";

export function hasPgBouncer() {
  for (const p of [PGBOUNCER, "/usr/sbin/pgbouncer"])
    try {
      execFileSync(p, ["--version"], { stdio: "ignore" });
      return p;
    } catch {
      /* next */
    }
  return null;
}

export async function startPgBouncer(upstreamUrl) {
  const bin = hasPgBouncer();
  if (!bin) throw new Error("pgbouncer is not installed: sudo apt-get install -y pgbouncer (npm test installs it as root)");
  const up = new URL(upstreamUrl);
  const user = decodeURIComponent(up.username || "postgres");
  const dir = mkdtempSync(path.join(tmpdir(), "herald-pgbouncer-"));
  chmodSync(dir, 0o777); // pgbouncer drops root for the postgres user, which must read and write here
  const port = await freePort();
  const ini = path.join(dir, "pgbouncer.ini");
  writeFileSync(path.join(dir, "users.txt"), `"${user}" "${decodeURIComponent(up.password)}"\n`);
  writeFileSync(
    ini,
    [
      "[databases]",
      `* = host=${up.hostname} port=${up.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      `auth_type = ${up.password ? "plain" : "trust"}`,
      `auth_file = ${path.join(dir, "users.txt")}`,
      `admin_users = ${user}`,
      "pool_mode = transaction",
      "ignore_startup_parameters = options,extra_float_digits",
      "default_pool_size = 10",
      "max_client_conn = 500",
      `logfile = ${path.join(dir, "pgbouncer.log")}`,
      "",
    ].join("\n"),
  );
  const args = process.getuid?.() === 0 ? ["-u", "postgres", ini] : [ini];
  const child = spawn(bin, args, { stdio: "ignore" }); // it logs to its logfile
  const exited = new Promise((r) => child.once("exit", r));
  const until = Date.now() + 15_000;
  for (;;) {
    const open = await new Promise((resolve) => {
      const s = connect({ host: "127.0.0.1", port });
      s.once("connect", () => (s.destroy(), resolve(true)));
      s.once("error", () => resolve(false));
    });
    if (open) break;
    if (child.exitCode !== null || Date.now() > until) throw new Error(`pgbouncer did not start (see ${dir}/pgbouncer.log)`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    /** `url` (a database on the upstream server) as reached through this PgBouncer. */
    via(url) {
      const u = new URL(url);
      u.hostname = "127.0.0.1";
      u.port = String(port);
      return u.toString();
    },
    /** The admin console's URL (SHOW STATS, SHOW POOLS). */
    adminUrl() {
      const u = new URL(upstreamUrl);
      u.hostname = "127.0.0.1";
      u.port = String(port);
      u.pathname = "/pgbouncer";
      return u.toString();
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
