import { describe, expect, it } from "vitest";
import { parseEnv } from "./env";

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
});
