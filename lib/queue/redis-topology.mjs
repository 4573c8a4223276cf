// How Herald reaches Redis: one standalone server, a Redis Cluster, or a master watched by
// Sentinel (HERALD_REDIS_MODE). Plain JavaScript so that lib/env.ts, lib/queue/connection.ts and
// the scripts (npm run up, npm test, benchmarks: plain node) parse REDIS_URL the same way and
// open every connection through the same constructor.
//
//   standalone  REDIS_URL = redis[s]://[user:pass@]host:port[/db]
//   cluster     REDIS_URL = comma-separated seed nodes (any few masters), no /db
//   sentinel    REDIS_URL = comma-separated sentinels; HERALD_REDIS_SENTINEL_NAME names the master.
//               The URLs' user and password are the master's (and its replicas'); sentinels that
//               want a password of their own take HERALD_REDIS_SENTINEL_PASSWORD.
// rediss:// turns TLS on for every connection of the mode (in sentinel mode: sentinels and master).
import { Cluster, Redis } from "ioredis";

export const REDIS_MODES = ["standalone", "cluster", "sentinel"];

export class RedisConfigError extends Error {
  constructor(variable, message) {
    super(`${variable}: ${message}`);
    this.variable = variable;
    this.detail = message;
  }
}

const NAME = /^[A-Za-z0-9._-]+$/;

/** Parses the settings into a topology, or throws a RedisConfigError naming the variable. */
export function parseRedisTopology({ mode, url, sentinelName, sentinelPassword } = {}) {
  mode = mode || "standalone";
  url = url || "redis://127.0.0.1:6379";
  if (!REDIS_MODES.includes(mode)) throw new RedisConfigError("HERALD_REDIS_MODE", `must be one of ${REDIS_MODES.join(", ")} (got "${mode}")`);
  const parts = url.split(",").map((s) => s.trim());
  if (parts.some((p) => p === ""))
    throw new RedisConfigError("REDIS_URL", "has an empty entry: separate node URLs with single commas, e.g. redis://h1:6379,redis://h2:6379");
  if (mode === "standalone" && parts.length > 1)
    throw new RedisConfigError("REDIS_URL", `lists ${parts.length} URLs: set HERALD_REDIS_MODE=cluster or sentinel, or give one redis:// URL`);
  const defaultPort = mode === "sentinel" ? 26379 : 6379;
  const parsed = parts.map((p) => parseOne(p, defaultPort, mode));
  const first = parsed[0];
  for (const p of parsed.slice(1)) {
    if (p.tls !== first.tls) throw new RedisConfigError("REDIS_URL", "mixes redis:// and rediss://: use one scheme for every node");
    if ((p.username || p.password) && (p.username !== first.username || p.password !== first.password))
      throw new RedisConfigError("REDIS_URL", "gives different credentials to different nodes: use one user and password (or put them on the first URL only)");
  }
  const topology = {
    mode,
    url: parts[0],
    nodes: parsed.map(({ host, port }) => ({ host, port })),
    username: first.username,
    password: first.password,
    tls: first.tls,
    db: first.db,
  };
  if (mode === "sentinel") {
    if (!sentinelName) throw new RedisConfigError("HERALD_REDIS_SENTINEL_NAME", "is required with HERALD_REDIS_MODE=sentinel: the master's name in the sentinels (e.g. mymaster)");
    if (!NAME.test(sentinelName)) throw new RedisConfigError("HERALD_REDIS_SENTINEL_NAME", "may only contain A-Z a-z 0-9 . _ -");
    topology.sentinelName = sentinelName;
    topology.sentinelPassword = sentinelPassword || undefined;
  }
  return topology;
}

function parseOne(raw, defaultPort, mode) {
  let u;
  try {
    u = new URL(raw);
  } catch {
    throw new RedisConfigError("REDIS_URL", `"${redact(raw)}" is not a URL like redis://host:6379`);
  }
  if (u.protocol !== "redis:" && u.protocol !== "rediss:")
    throw new RedisConfigError("REDIS_URL", `"${redact(raw)}" must start with redis:// or rediss://`);
  if (!u.hostname) throw new RedisConfigError("REDIS_URL", `"${redact(raw)}" has no host`);
  const path = u.pathname.replace(/^\//, "");
  if (path !== "" && !/^\d{1,2}$/.test(path)) throw new RedisConfigError("REDIS_URL", `"${redact(raw)}": the path must be a database number (/0)`);
  const db = path === "" ? 0 : Number(path);
  if (mode === "cluster" && db !== 0) throw new RedisConfigError("REDIS_URL", "Redis Cluster has only database 0: drop the /db from the node URLs");
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: u.port ? Number(u.port) : defaultPort,
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    tls: u.protocol === "rediss:",
    db,
  };
}

function redact(raw) {
  return raw.replace(/\/\/([^@/]*)@/, "//***@");
}

// A master demoted by a failover answers writes with READONLY until Sentinel's reconfiguration
// drops its clients: reconnect (through the sentinels, to the new master) and resend the command.
const reconnectOnReadonly = (err) => (String(err?.message).startsWith("READONLY") ? 2 : false);

/**
 * Opens a connection (a Redis, or a Cluster for mode cluster) with ioredis `options` applied to
 * every underlying node connection. enableOfflineQueue, enableAutoPipelining and lazyConnect act
 * on the cluster as a whole.
 */
export function createRedisClient(topology, options = {}) {
  const tls = topology.tls ? { ...(options.tls ?? {}) } : undefined;
  if (topology.mode === "cluster") {
    const { enableOfflineQueue, enableAutoPipelining, lazyConnect, ...nodeOptions } = options;
    return new Cluster(topology.nodes, {
      redisOptions: { ...nodeOptions, username: topology.username, password: topology.password, tls },
      ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
      ...(enableAutoPipelining === undefined ? {} : { enableAutoPipelining }),
      ...(lazyConnect === undefined ? {} : { lazyConnect }),
      // Seeds first, then what CLUSTER SLOTS says; a restarted or failed-over master is found again.
      scaleReads: "master",
      slotsRefreshTimeout: 2_000,
      retryDelayOnClusterDown: 200,
      retryDelayOnFailover: 200,
      clusterRetryStrategy: (times) => Math.min(100 * times, 2_000),
    });
  }
  if (topology.mode === "sentinel") {
    return new Redis({
      ...options,
      sentinels: topology.nodes,
      name: topology.sentinelName,
      role: "master",
      username: topology.username,
      password: topology.password,
      sentinelPassword: topology.sentinelPassword,
      db: topology.db,
      tls,
      sentinelTLS: tls,
      enableTLSForSentinelMode: Boolean(tls),
      // Subscribe to the sentinels' +switch-master, so a failover is followed at once.
      failoverDetector: true,
      reconnectOnError: options.reconnectOnError ?? reconnectOnReadonly,
    });
  }
  return new Redis(topology.url, options);
}

/** The connections to scan for keys: every master of a cluster, else the client itself. */
export function masterConnections(client) {
  return client instanceof Cluster ? client.nodes("master") : [client];
}

/** The topology from an environment (scripts: process.env or a .env), throwing RedisConfigError. */
export function topologyFromEnv(env) {
  return parseRedisTopology({
    mode: env.HERALD_REDIS_MODE,
    url: env.REDIS_URL,
    sentinelName: env.HERALD_REDIS_SENTINEL_NAME,
    sentinelPassword: env.HERALD_REDIS_SENTINEL_PASSWORD,
  });
}
