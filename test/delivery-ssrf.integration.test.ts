import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "./helpers/tenant";
import { startReceiver, type Receiver } from "./helpers/receiver";
import { makeApp, makeEndpoint, publish, waitUntil } from "./helpers/delivery";

// The SSRF guard, with many spellings of loopback addresses that the test allow-list
// (HERALD_ALLOW_PRIVATE_NETWORKS=127.0.0.1/32) does not cover. Real receivers listen on 127.0.0.2
// and [::1] and must never see a request. Checked twice: on create (a clear 422) and at connect
// time, for URLs that got past the first check (here written straight into the database, as if
// DNS had changed since the endpoint was created).

const spellings = (port: number) => [
  `http://127.0.0.2:${port}/hook`,
  `http://2130706434:${port}/hook`, // decimal
  `http://0x7f000002:${port}/hook`, // hex
  `http://0x7f.0x0.0x0.0x2:${port}/hook`, // hex octets
  `http://0177.0.0.02:${port}/hook`, // octal
  `http://127.2:${port}/hook`, // short form
  `http://[::1]:${port}/hook`,
  `http://[0:0:0:0:0:0:0:1]:${port}/hook`,
  `http://[::ffff:127.0.0.2]:${port}/hook`, // IPv4-mapped
  `http://[::ffff:7f00:2]:${port}/hook`,
  `http://[::127.0.0.2]:${port}/hook`, // IPv4-compatible
  `http://[64:ff9b::7f00:2]:${port}/hook`, // NAT64
  `http://[2002:7f00:2::]:${port}/hook`, // 6to4
  `http://0.0.0.0:${port}/hook`,
  `http://[::]:${port}/hook`,
];

describe("SSRF guard", () => {
  let t: Tenant;
  let appId: string;
  let v4: Receiver;
  let v6: Receiver;

  beforeAll(async () => {
    t = await createTenant("delivery-ssrf");
    appId = await makeApp(t.api);
    v4 = await startReceiver(undefined, "127.0.0.2");
    v6 = await startReceiver(undefined, "::1");
  });
  afterAll(async () => {
    await v4?.close();
    await v6?.close();
  });

  it("refuses every spelling when an endpoint is created, with a clear message", async () => {
    for (const url of spellings(v4.port)) {
      const res = await t.api("POST", `/app/${appId}/endpoint`, { url });
      expect(res.status, url).toBe(422);
      expect(JSON.stringify(res.body.detail), url).toMatch(/non-public address/);
    }
  });

  it("refuses them again at connect time: the attempt is ssrf_blocked and nothing reaches the receivers", async () => {
    const allowed = await startReceiver();
    const endpoints: { id: string; url: string }[] = [];
    for (const url of [...spellings(v4.port), ...spellings(v6.port).filter((u) => u.includes("["))]) {
      const ep = await makeEndpoint(t.api, appId, { url: allowed.url });
      await t.db.endpoint.update({ where: { id: ep.id }, data: { url } });
      endpoints.push({ id: ep.id, url });
    }
    const msgId = await publish(t.api, appId, { ssrf: true });
    for (const ep of endpoints) {
      const [a] = await waitUntil(
        `an attempt to ${ep.url}`,
        () => t.db.attempt.findMany({ where: { messageId: msgId, endpointId: ep.id } }),
        (x) => x.length >= 1,
      );
      expect(a, ep.url).toMatchObject({ status: "fail", responseStatus: 0, errorClass: "ssrf_blocked", url: ep.url });
      expect(a!.errorMessage, ep.url).toMatch(/refusing to connect/);
    }
    expect(v4.received).toHaveLength(0);
    expect(v6.received).toHaveLength(0);
    expect(allowed.received).toHaveLength(0);
    await allowed.close();
  });

  it("still delivers to the allowed loopback address", async () => {
    const ok = await startReceiver();
    const other = await makeApp(t.api);
    await makeEndpoint(t.api, other, { url: ok.url.replace("127.0.0.1", "2130706433") }); // 127.0.0.1 in decimal
    await publish(t.api, other, { allowed: true });
    await ok.waitFor(1);
    await ok.close();
  });
});
