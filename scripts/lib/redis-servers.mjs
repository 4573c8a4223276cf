// Private Redis topologies on loopback for tests and benchmarks: a Redis Cluster of three masters,
// or a master with a replica watched by three sentinels. Every server is a child process of the
// caller on a free port with its files in a temporary folder, without persistence (as the machine's
// shared Redis), so restarting or failing one over never touches anything else on the machine.
//
//   const c = await startRedisCluster();   // c.env: { REDIS_URL, HERALD_REDIS_MODE: "cluster" }
//   const s = await startRedisSentinel();  // s.env: { REDIS_URL, HERALD_REDIS_MODE, HERALD_REDIS_SENTINEL_NAME }
//   await c.restartNode(0); await s.failover(); await c.stop(); await s.stop();
//   const r = await startRedisCluster({ replicas: 1 }); await r.failOverMaster(r.masterPorts()[0]);
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./isolated-run.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const HOST = "127.0.0.1";

function cli(port, ...args) {
  return execFileSync("redis-cli", ["-h", HOST, "-p", String(port), ...args], { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "pipe"] }).trim();
}

async function waitUntil(what, check, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      if (await check()) return;
    } catch (e) {
      last = e;
    }
    if (Date.now() > until) throw new Error(`${what} within ${timeoutMs / 1000}s${last ? `: ${last.message}` : ""}`);
    await sleep(200);
  }
}

/** One redis-server child; `args` after the port. Resolves once it answers PING. */
async function startServer(dir, port, args, { sentinel = false } = {}) {
  const conf = path.join(dir, `${sentinel ? "sentinel" : "redis"}-${port}.conf`);
  // Sentinel rewrites its config file, so it needs one of its own; a server takes flags only.
  writeFileSync(conf, sentinel ? args.join("\n") + "\n" : "");
  const argv = sentinel
    ? [conf, "--sentinel", "--port", String(port), "--bind", HOST, "--dir", dir]
    : [conf, "--port", String(port), "--bind", HOST, "--dir", dir, "--save", "", "--appendonly", "no", ...args];
  const child = spawn("redis-server", argv, { stdio: ["ignore", "ignore", "inherit"] });
  const exited = new Promise((r) => child.once("exit", r));
  await waitUntil(`redis-server on ${port} did not answer`, () => cli(port, "PING") === "PONG", 15_000);
  return { port, child, exited };
}

async function stopServer(server, signal = "SIGTERM") {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  await server.exited;
}

/**
 * A Redis Cluster of `masters` masters, each with `replicas` replicas. Without replicas a
 * restarted master comes back empty, like a restart without persistence, and keeps its slots
 * through its nodes file; with them, a killed master's replica takes its slots over (the
 * cluster's own failover, after `nodeTimeoutMs`).
 */
export async function startRedisCluster({ masters = 3, replicas = 0, nodeTimeoutMs = 2_000 } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "herald-redis-cluster-"));
  const total = masters * (1 + replicas);
  const ports = [];
  // Each node's cluster bus port too: by default port + 10000, which no reservation covers and
  // which may be anyone's (or above 65535).
  const busPorts = new Map();
  for (let i = 0; i < total; i++) {
    const port = await freePort();
    ports.push(port);
    busPorts.set(port, await freePort());
  }
  const args = (port) => [
    "--cluster-enabled", "yes",
    "--cluster-port", String(busPorts.get(port)),
    "--cluster-config-file", path.join(dir, `nodes-${port}.conf`),
    "--cluster-node-timeout", String(nodeTimeoutMs),
    // Keep serving the slots that are up while one master is down.
    "--cluster-require-full-coverage", "no",
    // A replica takes over however long ago it last heard from its master: on an idle test
    // cluster that can be longer than the default factor allows, and the failover never happens.
    "--cluster-replica-validity-factor", "0",
  ];
  const servers = await Promise.all(ports.map((p) => startServer(dir, p, args(p))));
  execFileSync(
    "redis-cli",
    ["--cluster", "create", ...ports.map((p) => `${HOST}:${p}`), "--cluster-replicas", String(replicas), "--cluster-yes"],
    { stdio: "ignore", timeout: 30_000 },
  );
  const running = () => ports.filter((_, i) => servers[i].child.exitCode === null && servers[i].child.signalCode === null);
  const healthy = () =>
    ports.every((p) => {
      const info = cli(p, "CLUSTER", "INFO");
      return info.includes("cluster_state:ok") && info.includes(`cluster_known_nodes:${total}`);
    });
  /** Master ports, from CLUSTER NODES of a running node (a failover moves masters around). */
  const masterPorts = () =>
    cli(running()[0], "CLUSTER", "NODES")
      .split("\n")
      .filter((l) => / master /.test(l.replace(/,/g, " ")) && !/fail/.test(l.split(" ")[2] ?? ""))
      .map((l) => Number(l.split(" ")[1].split("@")[0].split(":").pop()));
  await waitUntil("the cluster did not become ready", () => healthy() && masterPorts().length === masters);

  return {
    ports,
    env: { REDIS_URL: ports.map((p) => `redis://${HOST}:${p}`).join(","), HERALD_REDIS_MODE: "cluster" },
    masterPorts,
    /** Stops master `i` (SIGKILL: no clean shutdown) and starts it again, empty, on its port. */
    async restartNode(i, { downMs = 1_000 } = {}) {
      await stopServer(servers[i], "SIGKILL");
      await sleep(downMs);
      servers[i] = await startServer(dir, ports[i], args(ports[i]));
      await waitUntil("the cluster did not recover after the restart", healthy, 60_000);
    },
    /**
     * Kills the master on `port` (SIGKILL) and waits for one of its replicas to be promoted in its
     * place; then starts the old master again, empty, and waits for it to rejoin as a replica.
     * Resolves with the port of the new master.
     */
    async failOverMaster(port) {
      const i = ports.indexOf(port);
      if (i < 0 || !masterPorts().includes(port)) throw new Error(`${port} is not a master of this cluster`);
      const before = masterPorts();
      await stopServer(servers[i], "SIGKILL");
      let promoted = 0;
      await waitUntil(
        "no replica took over the killed master's slots",
        () => {
          const now = masterPorts().filter((p) => p !== port);
          promoted = now.find((p) => !before.includes(p)) ?? 0;
          return promoted > 0 && running().every((p) => cli(p, "CLUSTER", "INFO").includes("cluster_state:ok"));
        },
        60_000,
      );
      servers[i] = await startServer(dir, ports[i], args(ports[i]));
      await waitUntil("the old master did not rejoin", () => healthy() && !masterPorts().includes(port), 60_000);
      return promoted;
    },
    async stop() {
      await Promise.all(servers.map((s) => stopServer(s)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A master and a replica, watched by three sentinels (quorum 2) under the name `name`. */
export async function startRedisSentinel({ name = "herald", downAfterMs = 2_000 } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "herald-redis-sentinel-"));
  const [masterPort, replicaPort, ...sentinelPorts] = await Promise.all(Array.from({ length: 5 }, () => freePort()));
  const data = [await startServer(dir, masterPort, [])];
  data.push(await startServer(dir, replicaPort, ["--replicaof", HOST, String(masterPort)]));
  await waitUntil("the replica did not sync", () => cli(replicaPort, "INFO", "replication").includes("master_link_status:up"));
  const sentinelConf = [
    `sentinel monitor ${name} ${HOST} ${masterPort} 2`,
    `sentinel down-after-milliseconds ${name} ${downAfterMs}`,
    `sentinel failover-timeout ${name} 10000`,
    `sentinel parallel-syncs ${name} 1`,
  ];
  const sentinels = await Promise.all(sentinelPorts.map((p) => startServer(dir, p, sentinelConf, { sentinel: true })));
  const masterAddr = () => cli(sentinelPorts[0], "SENTINEL", "get-master-addr-by-name", name).split("\n").map((s) => s.trim());
  await waitUntil("the sentinels did not find each other and the replica", () => {
    const info = cli(sentinelPorts[0], "SENTINEL", "master", name);
    const field = (k) => {
      const lines = info.split("\n").map((s) => s.trim());
      return lines[lines.indexOf(k) + 1];
    };
    return field("num-other-sentinels") === "2" && field("num-slaves") === "1";
  });

  const sentinel = {
    name,
    sentinelPorts,
    env: {
      REDIS_URL: sentinelPorts.map((p) => `redis://${HOST}:${p}`).join(","),
      HERALD_REDIS_MODE: "sentinel",
      HERALD_REDIS_SENTINEL_NAME: name,
    },
    /** The port of the current master, as the sentinels see it. */
    masterPort: () => Number(masterAddr()[1]),
    /**
     * A failover the sentinels carry out (SENTINEL FAILOVER: the replica is promoted, the old
     * master becomes its replica). Resolves once the new master takes writes.
     */
    async failover() {
      const before = sentinel.masterPort();
      cli(sentinelPorts[0], "SENTINEL", "FAILOVER", name);
      await waitUntil("the failover did not happen", () => sentinel.masterPort() !== before, 30_000);
      const after = sentinel.masterPort();
      await waitUntil("the new master does not take writes", () => cli(after, "INFO", "replication").includes("role:master"));
      return { from: before, to: after };
    },
    async stop() {
      await Promise.all([...sentinels, ...data].map((s) => stopServer(s)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return sentinel;
}
