import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../scripts/lib/isolated-run.mjs";
import { startStack, type Stack } from "./helpers/stack";
import { baseUrl } from "./helpers/tenant";

// Health as the Svix document has it: GET (and HEAD) /api/v1/health answer 204 with no body, so
// raw clients written against Svix work; Herald's detail (database, Redis) is /api/v1/health/status.
// A web process whose Redis does not answer says so on both.

describe("health", () => {
  it("GET and HEAD /api/v1/health answer 204 with no body", async () => {
    for (const method of ["GET", "HEAD"]) {
      const res = await fetch(`${baseUrl()}/api/v1/health`, { method });
      expect(res.status, method).toBe(204);
      expect(await res.text(), method).toBe("");
      expect(res.headers.get("content-type"), method).toBeNull();
    }
  });

  it("GET /api/v1/health/status reports the database and Redis", async () => {
    const res = await fetch(`${baseUrl()}/api/v1/health/status`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", database: "ok", redis: "ok" });
  });

  describe("with Redis unreachable", () => {
    let s: Stack;
    beforeAll(async () => {
      // Nothing listens on this port: the web process starts, its Redis never answers.
      s = await startStack({ webEnv: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` }, captureLogs: true });
    }, 180_000); // a private stack: its database is migrated from scratch (14-18 s here) and its web server started
    afterAll(async () => {
      await s?.close();
    });

    it("/health answers 503 naming Redis, /health/status gives the detail", async () => {
      const health = await fetch(`${s.baseUrl}/api/v1/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ code: "unhealthy", detail: expect.stringContaining("Not reachable: redis") });
      const status = await fetch(`${s.baseUrl}/api/v1/health/status`);
      expect(status.status).toBe(503);
      expect(await status.json()).toEqual({ status: "degraded", database: "ok", redis: "error" });
    });
  });
});
