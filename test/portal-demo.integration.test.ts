import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDemo } from "@/lib/demo/ensure-demo";
import { DEMO_EVENT_TYPES } from "@/lib/demo/catalog";
import { tsCommand } from "../scripts/lib/processes.mjs";
import { freePort } from "../scripts/lib/isolated-run.mjs";
import { createTenant, type Tenant } from "./helpers/tenant";
import { call } from "./helpers/portal";

// What `npm run up` sets up for a new user: the demo application (catalog, two endpoints on the
// loopback demo receiver, a portal link) and scripts/demo.ts, which receives, verifies and
// publishes. The portal link must open onto live, verified deliveries to both endpoints.

describe("the npm run up demo", () => {
  let t: Tenant;
  let demo: ChildProcess;
  let portalUrl: string;
  let appId: string;

  beforeAll(async () => {
    t = await createTenant("demo");
    const port = await freePort();
    const out = await ensureDemo(t.environmentId, `http://127.0.0.1:${port}/webhook`);
    portalUrl = out.portalUrl;
    appId = out.applicationId;
    // Pinned to this tenant's demo application: other suites may have apps with the uid "demo".
    const [cmd, args] = tsCommand("scripts/demo.ts", ["--port", String(port), "--app", appId]);
    demo = spawn(cmd, args, { env: process.env, stdio: ["ignore", "ignore", "inherit"] });
  });
  afterAll(() => {
    demo.kill("SIGTERM");
  });

  it("opens a portal with the catalog and both demo endpoints receiving live, verified events", async () => {
    const token = new URL(portalUrl).hash.replace("#key=", "");
    const session = (await call("POST", "/auth/portal-session", null, { token })).body.session as string;
    expect(session).toMatch(/^hps_/);

    const catalog = await call("GET", "/portal/event-type", session);
    expect(catalog.body.data.map((e: { name: string }) => e.name).sort()).toEqual(DEMO_EVENT_TYPES.map((e) => e.name).sort());
    expect(catalog.body.data.find((e: { name: string }) => e.name === "order.updated").deprecated).toBe(true);

    const endpoints = (await call("GET", `/app/${appId}/endpoint`, session)).body.data as { id: string; uid: string; signing: string }[];
    expect(endpoints.map((e) => [e.uid, e.signing]).sort()).toEqual([
      ["demo-orders", "ed25519"],
      ["demo-receiver", "hmac_sha256"],
    ]);

    // The first burst arrives within seconds; each endpoint gets at least one verified 200.
    const verifiedBy = new Map<string, number>();
    for (let i = 0; i < 120 && verifiedBy.size < 2; i++) {
      for (const ep of endpoints) {
        const attempts = (await call("GET", `/app/${appId}/attempt/endpoint/${ep.id}`, session)).body.data as { responseStatusCode: number; response: string }[];
        // A 401 would mean the demo receiver could not verify Herald's signature.
        expect(attempts.filter((a) => a.responseStatusCode === 401)).toEqual([]);
        const ok = attempts.filter((a) => a.responseStatusCode === 200 && a.response.includes('"verified":true')).length;
        if (ok > 0) verifiedBy.set(ep.uid, ok);
      }
      if (verifiedBy.size < 2) await new Promise((r) => setTimeout(r, 500));
    }
    expect([...verifiedBy.keys()].sort()).toEqual(["demo-orders", "demo-receiver"]);

    const logs = await call("GET", `/portal/app/${appId}/delivery`, session);
    expect(logs.body.data.length).toBeGreaterThanOrEqual(6);
  }, 90_000);
});
