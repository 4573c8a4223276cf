import { describe, expect, it } from "vitest";
import { parseEnv, type Env } from "./env";
import { parseRedisTopology } from "./queue/redis-topology.mjs";

const redisTopology = (e: Env) =>
  parseRedisTopology({ mode: e.HERALD_REDIS_MODE, url: e.REDIS_URL, sentinelName: e.HERALD_REDIS_SENTINEL_NAME });

const key = Buffer.alloc(32, 7).toString("base64");
const base = { DATABASE_URL: "postgresql://u@127.0.0.1/db", HERALD_ENCRYPTION_KEY: key };

describe("config", () => {
  it("applies defaults", () => {
    const env = parseEnv(base);
    expect(env.PORT).toBe(3000);
    expect(env.REDIS_URL).toBe("redis://127.0.0.1:6379");
    expect(env.HERALD_PUBLIC_URL).toBe("http://localhost:3000");
    expect(env.HERALD_ALLOW_PRIVATE_NETWORKS).toEqual([]);
  });

  it("names the variable that is missing or wrong", () => {
    expect(() => parseEnv({ HERALD_ENCRYPTION_KEY: key })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ ...base, HERALD_ENCRYPTION_KEY: "short" })).toThrow(/HERALD_ENCRYPTION_KEY: must be 32 bytes/);
    expect(() => parseEnv({ ...base, PORT: "http" })).toThrow(/PORT/);
    expect(() => parseEnv({ ...base, HERALD_RETRY_SCHEDULE: "1,x" })).toThrow(/HERALD_RETRY_SCHEDULE/);
    expect(() => parseEnv({ ...base, HERALD_ALLOW_PRIVATE_NETWORKS: "127.0.0.1/32,10.0.0.0/33" })).toThrow(
      /HERALD_ALLOW_PRIVATE_NETWORKS: "10.0.0.0\/33" is not a CIDR/,
    );
    expect(() => parseEnv({ ...base, HERALD_ALLOW_PRIVATE_NETWORKS: "localhost" })).toThrow(/HERALD_ALLOW_PRIVATE_NETWORKS/);
    expect(() => parseEnv({ ...base, HERALD_BOOTSTRAP_API_KEY: "too-short" })).toThrow(/HERALD_BOOTSTRAP_API_KEY/);
    expect(() => parseEnv({ ...base, HERALD_BOOTSTRAP_API_KEY: "x".repeat(31) + "!" })).toThrow(/HERALD_BOOTSTRAP_API_KEY/);
  });

  it("parses lists", () => {
    const env = parseEnv({ ...base, HERALD_RETRY_SCHEDULE: "1, 1,2", HERALD_ALLOW_PRIVATE_NETWORKS: "127.0.0.1/32, ::1/128" });
    expect(env.HERALD_RETRY_SCHEDULE).toEqual([1, 1, 2]);
    expect(env.HERALD_ALLOW_PRIVATE_NETWORKS).toEqual(["127.0.0.1/32", "::1/128"]);
  });

  it("reads REDIS_URL by HERALD_REDIS_MODE and names the variable that is wrong", () => {
    expect(parseEnv(base).HERALD_REDIS_MODE).toBe("standalone");
    const cluster = parseEnv({ ...base, HERALD_REDIS_MODE: "cluster", REDIS_URL: "redis://:pw@10.0.0.1:7000, redis://10.0.0.2:7001" });
    expect(redisTopology(cluster)).toMatchObject({
      mode: "cluster",
      nodes: [{ host: "10.0.0.1", port: 7000 }, { host: "10.0.0.2", port: 7001 }],
      password: "pw",
      tls: false,
    });
    const sentinel = parseEnv({
      ...base,
      HERALD_REDIS_MODE: "sentinel",
      REDIS_URL: "rediss://user:p%40ss@s1/2,rediss://s2:26380",
      HERALD_REDIS_SENTINEL_NAME: "mymaster",
    });
    expect(redisTopology(sentinel)).toMatchObject({
      mode: "sentinel",
      nodes: [{ host: "s1", port: 26379 }, { host: "s2", port: 26380 }],
      username: "user",
      password: "p@ss",
      tls: true,
      db: 2,
      sentinelName: "mymaster",
    });

    expect(() => parseEnv({ ...base, HERALD_REDIS_MODE: "replicated" })).toThrow(/HERALD_REDIS_MODE/);
    expect(() => parseEnv({ ...base, REDIS_URL: "http://127.0.0.1:6379" })).toThrow(/REDIS_URL: .*redis:\/\//);
    expect(() => parseEnv({ ...base, REDIS_URL: "redis://a:1,redis://b:2" })).toThrow(/REDIS_URL: lists 2 URLs: set HERALD_REDIS_MODE/);
    expect(() => parseEnv({ ...base, HERALD_REDIS_MODE: "cluster", REDIS_URL: "redis://a:1,,redis://b:2" })).toThrow(/REDIS_URL: has an empty entry/);
    expect(() => parseEnv({ ...base, HERALD_REDIS_MODE: "cluster", REDIS_URL: "redis://a:1/3" })).toThrow(/REDIS_URL: Redis Cluster has only database 0/);
    expect(() => parseEnv({ ...base, HERALD_REDIS_MODE: "cluster", REDIS_URL: "redis://a:1,rediss://b:2" })).toThrow(/REDIS_URL: mixes/);
    expect(() => parseEnv({ ...base, HERALD_REDIS_MODE: "cluster", REDIS_URL: "redis://:x@a:1,redis://:y@b:2" })).toThrow(/REDIS_URL: gives different credentials/);
    expect(() => parseEnv({ ...base, HERALD_REDIS_MODE: "sentinel", REDIS_URL: "redis://s1:26379" })).toThrow(/HERALD_REDIS_SENTINEL_NAME: is required/);
    // A password in a malformed URL is not echoed back.
    expect(() => parseEnv({ ...base, REDIS_URL: "redis://:secret@h/x" })).toThrow(/"redis:\/\/\*\*\*@h\/x"/);
  });
});
