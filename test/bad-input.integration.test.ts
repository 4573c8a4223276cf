import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/ids";
import { createTenant, baseUrl, type Tenant } from "./helpers/tenant";
import { snapshotEnvironment } from "./helpers/db-snapshot";
import { portalSession } from "./helpers/portal";

// Every kind of bad input gets a clear 4xx in Svix's error shape, never a 5xx, and writes
// nothing: the tenant's rows are fingerprinted before and compared after.

type Res = Awaited<ReturnType<Tenant["api"]>>;

function expectError(res: Res, status: number, what = "") {
  expect(res.status, `${what} → ${JSON.stringify(res.body)}`).toBe(status);
  if (status === 422) {
    expect(Array.isArray(res.body.detail), what).toBe(true);
    for (const item of res.body.detail as unknown[]) expect(item, what).toMatchObject({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
  } else {
    expect(res.body, what).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
  }
}

const locs = (res: Res) => (res.body.detail as { loc: (string | number)[] }[]).map((d) => d.loc.join("."));

describe("bad input", () => {
  let t: Tenant;
  let appId: string;
  let msgId: string;
  let before: Awaited<ReturnType<typeof snapshotEnvironment>>;

  beforeAll(async () => {
    t = await createTenant("bad-input");
    appId = (await t.api("POST", "/app", { name: "Bad", uid: "bad-app" })).body.id;
    expect((await t.api("POST", "/event-type", { name: "order.paid", description: "Paid" })).status).toBe(201);
    // Paused: no deliveries, so the worker never changes these rows under the fingerprint.
    expect((await t.api("POST", "/app/bad-app/endpoint", { url: "https://hooks.example.com/x", uid: "ep", disabled: true })).status).toBe(201);
    msgId = (await t.api("POST", "/app/bad-app/msg", { eventType: "order.paid", payload: { a: 1 }, eventId: "evt-1" })).body.id;
    before = await snapshotEnvironment(t.environmentId);
  });

  afterAll(async () => {
    // Nothing any of these requests did left a trace.
    expect(await snapshotEnvironment(t.environmentId)).toEqual(before);
  });

  it("malformed JSON is a 400 invalid_json on every route that takes a body", async () => {
    const routes: [string, string][] = [
      ["POST", "/app"],
      ["PUT", "/app/bad-app"],
      ["PATCH", "/app/bad-app"],
      ["POST", "/event-type"],
      ["PUT", "/event-type/order.paid"],
      ["PATCH", "/event-type/order.paid"],
      ["POST", "/app/bad-app/endpoint"],
      ["PUT", "/app/bad-app/endpoint/ep"],
      ["PATCH", "/app/bad-app/endpoint/ep"],
      ["PUT", "/app/bad-app/endpoint/ep/headers"],
      ["PATCH", "/app/bad-app/endpoint/ep/headers"],
      ["POST", "/app/bad-app/endpoint/ep/secret/rotate"],
      ["POST", "/app/bad-app/endpoint/ep/recover"],
      ["POST", "/app/bad-app/endpoint/ep/send-example"],
      ["POST", "/app/bad-app/msg"],
      ["POST", "/auth/app-portal-access/bad-app"],
    ];
    for (const [method, path] of routes)
      for (const text of ["{", '{"name":', "nul", "[1,", '"unterminated', "{'single': 1}", "{}}", "", "   "]) {
        const res = await t.api(method, path, text);
        expectError(res, 400, `${method} ${path} ${JSON.stringify(text)}`);
        expect(res.body.code).toBe("invalid_json");
      }
  });

  it("wrong JSON types are 422s that name the field", async () => {
    const cases: [string, string, unknown, string][] = [
      ["POST", "/app", { name: 123 }, "body.name"],
      ["POST", "/app", [], "body"],
      ["POST", "/app", null, "body"],
      ["POST", "/app", JSON.stringify("just a string"), "body"],
      ["POST", "/app", { name: "x", metadata: { a: 1 } }, "body.metadata.a"],
      ["POST", "/app", { name: "x", rateLimit: -1 }, "body.rateLimit"],
      ["POST", "/app", { name: "x", throttleRate: 1.5 }, "body.throttleRate"],
      ["POST", "/app", { name: "x", uid: "has space" }, "body.uid"],
      ["POST", "/app", { name: "x", uid: newId("application") }, "body.uid"],
      ["PATCH", "/app/bad-app", { name: false }, "body.name"],
      ["POST", "/event-type", { name: "a.b", description: 5 }, "body.description"],
      ["POST", "/event-type", { name: "a.b", description: "x", schemas: { v1: {} } }, "body.schemas.v1"],
      // Not a JSON Schema a validator accepts: the same check the console's editor runs as you type.
      ["POST", "/event-type", { name: "a.b", description: "x", schemas: { "1": { type: "strnig" } } }, "body.schemas.1"],
      ["PUT", "/event-type/order.paid", { description: "x", schemas: { "1": { type: "object" }, "2": { required: "id" } } }, "body.schemas.2"],
      ["PATCH", "/event-type/order.paid", { schemas: { "1": { properties: { a: { $ref: "#/definitions/missing" } } } } }, "body.schemas.1"],
      ["PATCH", "/event-type/order.paid", { archived: "true" }, "body.archived"],
      ["POST", "/app/bad-app/endpoint", { url: 42 }, "body.url"],
      ["POST", "/app/bad-app/endpoint", { url: "https://a.example.com", disabled: "yes" }, "body.disabled"],
      ["POST", "/app/bad-app/endpoint", { url: "https://a.example.com", channels: "eu" }, "body.channels"],
      ["POST", "/app/bad-app/endpoint", { url: "https://a.example.com", filterTypes: "order.paid" }, "body.filterTypes"],
      ["POST", "/app/bad-app/endpoint", { url: "https://a.example.com", filterTypes: [] }, "body.filterTypes"],
      ["POST", "/app/bad-app/endpoint", { url: "https://a.example.com", version: 2 ** 40 }, "body.version"],
      ["POST", "/app/bad-app/endpoint", { url: "https://a.example.com", uid: newId("endpoint") }, "body.uid"],
      ["POST", "/app/bad-app/endpoint", { url: "https://a.example.com", retrySchedule: [0] }, "body.retrySchedule.0"],
      ["POST", "/app/bad-app/endpoint", { url: "https://a.example.com", signing: "rsa" }, "body.signing"],
      ["PUT", "/app/bad-app/endpoint/ep/headers", { headers: { "X-A": 1 } }, "body.headers.X-A"],
      ["PUT", "/app/bad-app/endpoint/ep/headers", { headers: { "Bad Name": "v" } }, "body.headers.Bad Name"],
      ["PUT", "/app/bad-app/endpoint/ep/headers", { headers: { "X-A": "line\r\nbreak" } }, "body.headers.X-A"],
      ["POST", "/app/bad-app/endpoint/ep/recover", { since: "yesterday" }, "body.since"],
      ["POST", "/app/bad-app/endpoint/ep/secret/rotate", { gracePeriodSeconds: -5 }, "body.gracePeriodSeconds"],
      ["POST", "/app/bad-app/msg", { eventType: "order.paid", payload: "text" }, "body.payload"],
      ["POST", "/app/bad-app/msg", { eventType: "order.paid" }, "body.payload"],
      ["POST", "/app/bad-app/msg", { eventType: "order.paid", payload: {}, channels: ["a", "a"] }, "body.channels"],
      ["POST", "/app/bad-app/msg", { eventType: "order.paid", payload: {}, eventId: newId("message") }, "body.eventId"],
      ["POST", "/app/bad-app/msg", { eventType: "order.paid", payload: {}, payloadRetentionPeriod: 1000 }, "body.payloadRetentionPeriod"],
      ["POST", "/app/bad-app/endpoint/ep/send-example", { eventType: "order.paid", exampleIndex: -1 }, "body.exampleIndex"],
      ["POST", "/auth/app-portal-access/bad-app", { expiry: 1 }, "body.expiry"],
      ["PATCH", "/environment/settings", { retrySchedule: [0] }, "body.retrySchedule.0"],
      ["PATCH", "/environment/settings", { retrySchedule: [90_000] }, "body.retrySchedule.0"],
      ["PATCH", "/environment/settings", { retrySchedule: "5,300" }, "body.retrySchedule"],
      ["PATCH", "/environment/settings", { retrySchedule: Array.from({ length: 20 }, () => 5) }, "body.retrySchedule"],
      ["PATCH", "/environment/settings", {}, "body.retrySchedule"],
    ];
    for (const [method, path, body, loc] of cases) {
      const res = await t.api(method, path, body);
      expectError(res, 422, `${method} ${path} ${JSON.stringify(body)}`);
      expect(locs(res), `${method} ${path} ${JSON.stringify(body)}`).toContain(loc);
    }
  });

  it("an invalid JSON Schema is a 422 that says what is wrong with it, on create, replace and patch", async () => {
    const post = await t.api("POST", "/event-type", { name: "schema.bad", description: "x", schemas: { "1": { type: "strnig" } } });
    expectError(post, 422, "POST bad schema");
    expect(post.body.detail[0]).toMatchObject({ loc: ["body", "schemas", "1"], msg: expect.stringMatching(/^Not a valid JSON Schema: \/type /) });
    const put = await t.api("PUT", "/event-type/order.paid", { description: "x", schemas: { "1": { type: "object", required: "id" } } });
    expect(put.body.detail[0].msg).toMatch(/required/);
    const patch = await t.api("PATCH", "/event-type/order.paid", { schemas: { "1": { properties: { a: { $ref: "#/definitions/missing" } } } } });
    expect(patch.body.detail[0].msg).toMatch(/^Not a usable JSON Schema: .*missing/);
  });

  it("NUL characters and absurd nesting are refused before anything reaches the database", async () => {
    const nul = await t.api("POST", "/app/bad-app/msg", { eventType: "order.paid", payload: { note: "a\u0000b" } });
    expectError(nul, 422, "NUL in a payload value");
    expect(locs(nul)).toContain("body.payload.note");
    expectError(await t.api("POST", "/app/bad-app/msg", { eventType: "order.paid", payload: { ["k\u0000"]: 1 } }), 422, "NUL in a key");
    expectError(await t.api("POST", "/app", { name: "nul\u0000name" }), 422, "NUL in a name");
    // A lone surrogate (JSON can spell one with a \uXXXX escape) is no Unicode character:
    // PostgreSQL refused it, and a publish, an app name or an endpoint description answered a 500.
    const lone = await t.api("POST", "/app/bad-app/msg", { eventType: "order.paid", payload: { note: "a\ud800b" } });
    expectError(lone, 422, "lone surrogate in a payload value");
    expect(locs(lone)).toContain("body.payload.note");
    expect(lone.body.detail[0].msg).toMatch(/lone UTF-16 surrogate/);
    expectError(await t.api("POST", "/app/bad-app/msg", { eventType: "order.paid", payload: { ["\udc00"]: 1 } }), 422, "lone surrogate in a key");
    expectError(await t.api("POST", "/app", { name: "a\udc00b" }), 422, "lone surrogate in a name");
    expectError(await t.api("POST", "/app/bad-app/endpoint", { url: "https://a.example.com", description: "\ud800" }), 422, "lone surrogate in a description");
    // Bytes that are not UTF-8 are refused rather than stored as U+FFFD.
    const bytes = await fetch(`${baseUrl()}/api/v1/app`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.apiKey}`, "content-type": "application/json" },
      body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    });
    expect(bytes.status).toBe(400);
    expect(((await bytes.json()) as { detail: string }).detail).toMatch(/not valid UTF-8/);
    // In a query string too: a log search used to hand it to PostgreSQL, which answered a 500.
    for (const q of ["search=%00abc", "payload=ab%00c", "event_types=a%00"]) {
      const res = await t.api("GET", `/portal/app/bad-app/delivery?${q}`);
      expectError(res, 422, `NUL in ${q}`);
      expect(locs(res)).toEqual([`query.${q.split("=")[0]}`]);
    }
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = { d: deep };
    expectError(await t.api("POST", "/app/bad-app/msg", { eventType: "order.paid", payload: deep }), 422, "deep nesting");
    const deepest = "[".repeat(100_000) + "]".repeat(100_000);
    expectError(await t.api("POST", "/app/bad-app/msg", `{"eventType":"order.paid","payload":{"x":${deepest}}}`), 422, "very deep nesting");
  });

  it("unknown ids are 404s on every path", async () => {
    const app = newId("application");
    const ep = newId("endpoint");
    const msg = newId("message");
    const atmpt = newId("attempt");
    const requests: [string, string, unknown?][] = [
      ["GET", `/app/${app}`],
      ["PUT", `/app/${app}`, { name: "x" }],
      ["PATCH", `/app/${app}`, { name: "x" }],
      ["DELETE", `/app/${app}`],
      ["GET", `/app/no-such-uid`],
      ["GET", `/app/${app}/endpoint`],
      ["POST", `/app/${app}/endpoint`, { url: "https://a.example.com" }],
      ["GET", `/app/bad-app/endpoint/${ep}`],
      ["PUT", `/app/bad-app/endpoint/${ep}`, { url: "https://a.example.com" }],
      ["PATCH", `/app/bad-app/endpoint/${ep}`, { description: "x" }],
      ["DELETE", `/app/bad-app/endpoint/${ep}`],
      ["GET", `/app/bad-app/endpoint/no-such-uid`],
      ["GET", `/app/bad-app/endpoint/${ep}/headers`],
      ["PUT", `/app/bad-app/endpoint/${ep}/headers`, { headers: {} }],
      ["PATCH", `/app/bad-app/endpoint/${ep}/headers`, { headers: {} }],
      ["GET", `/app/bad-app/endpoint/${ep}/msg`],
      ["POST", `/app/bad-app/endpoint/${ep}/recover`, { since: "2026-01-01T00:00:00Z" }],
      ["GET", `/app/bad-app/endpoint/${ep}/secret`],
      ["POST", `/app/bad-app/endpoint/${ep}/secret/rotate`, {}],
      ["POST", `/app/bad-app/endpoint/${ep}/send-example`, { eventType: "order.paid" }],
      ["POST", `/app/bad-app/endpoint/ep/send-example`, { eventType: "no.such" }],
      ["GET", `/app/bad-app/endpoint/${ep}/stats`],
      ["GET", `/app/bad-app/attempt/endpoint/${ep}`],
      ["GET", `/app/bad-app/attempt/msg/${msg}`],
      ["GET", `/app/bad-app/attempt/msg/${msgId}?endpoint_id=${ep}`],
      ["GET", `/app/${app}/msg`],
      ["POST", `/app/${app}/msg`, { eventType: "order.paid", payload: {} }],
      ["GET", `/app/bad-app/msg/${msg}`],
      ["GET", `/app/bad-app/msg/no-such-event-id`],
      ["DELETE", `/app/bad-app/msg/${msg}/content`],
      ["GET", `/app/bad-app/msg/${msg}/endpoint`],
      ["POST", `/app/bad-app/msg/${msg}/endpoint/ep/resend`],
      ["POST", `/app/bad-app/msg/${msgId}/endpoint/${ep}/resend`],
      ["GET", `/app/bad-app/msg/${msgId}/attempt/${atmpt}`],
      ["DELETE", `/app/bad-app/msg/${msgId}/attempt/${atmpt}/content`],
      ["GET", `/app/bad-app/msg/${msg}/attempt/${atmpt}`],
      ["POST", `/auth/app-portal-access/${app}`, {}],
      ["POST", `/auth/app/${app}/expire-all`],
      ["GET", `/event-type/no.such`],
      ["PATCH", `/event-type/no.such`, { description: "x" }],
      ["DELETE", `/event-type/no.such`],
    ];
    for (const [method, path, body] of requests) {
      const res = await t.api(method, path, body);
      expectError(res, 404, `${method} ${path}`);
      expect(res.body.code).toBe("not_found");
    }
  });

  it("bodies over 256 KiB are 413s, whether the size is declared or streamed", async () => {
    const big = JSON.stringify({ eventType: "order.paid", payload: { blob: "x".repeat(256 * 1024) } });
    const declared = await t.api("POST", "/app/bad-app/msg", big);
    expectError(declared, 413, "declared");
    expect(declared.body.code).toBe("payload_too_large");

    const chunks = [big.slice(0, 100_000), big.slice(100_000)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const res = await fetch(`${baseUrl()}/api/v1/app/bad-app/msg`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.apiKey}`, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "payload_too_large" });

    for (const path of ["/app", "/app/bad-app/endpoint", "/event-type"])
      expectError(await t.api("POST", path, JSON.stringify({ name: "x".repeat(300 * 1024) })), 413, path);
  });

  it("invalid event-type names are refused in bodies and paths", async () => {
    for (const name of ["nodot", "a b.c", "a/b.c", "a..b", ".a", "a.", "ünï.code", "x".repeat(300) + ".y", ""]) {
      const res = await t.api("POST", "/event-type", { name, description: "x" });
      expectError(res, 422, JSON.stringify(name));
      expect(locs(res)).toContain("body.name");
    }
    expectError(await t.api("PUT", "/event-type/nodot", { description: "x" }), 422, "PUT nodot");
    expectError(await t.api("PUT", "/event-type/a%20b.c", { description: "x" }), 422, "PUT a b.c");
    expectError(await t.api("GET", "/event-type/a%20b"), 422, "GET a b");
    expectError(await t.api("POST", "/app/bad-app/msg", { eventType: "a b", payload: {} }), 422, "publish a b");
    expectError(await t.api("POST", "/app/bad-app/msg", { eventType: "not.in.catalog", payload: {} }), 422, "publish unknown");
  });

  it("invalid and non-public endpoint URLs are 422s (SSRF guard, every literal form)", async () => {
    const urls = [
      "",
      "not a url",
      "/relative/path",
      "ftp://example.com/",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "gopher://example.com/",
      "https://user:pass@example.com/",
      "http://127.0.0.2/",
      "http://127.1.2.3:8080/x",
      "http://0.0.0.0/",
      "http://0/",
      "http://2130706434/", // 127.0.0.2 as a decimal
      "http://0x7f.0.0.2/", // hex octet
      "http://0177.0.0.2/", // octal octet
      "http://10.0.0.1/",
      "http://172.16.5.4/",
      "http://192.168.1.1/",
      "http://100.64.0.1/",
      "http://169.254.169.254/latest/meta-data/",
      "http://224.0.0.1/",
      "http://255.255.255.255/",
      "http://[::]/",
      "http://[::1]/",
      "http://[fe80::1]/",
      "http://[fd00::1]/",
      "http://[ff02::1]/",
      "http://[::ffff:127.0.0.2]/",
      "http://[::ffff:169.254.169.254]/",
      "http://[::ffff:10.0.0.1]/",
      "http://[64:ff9b::a9fe:a9fe]/", // NAT64 of 169.254.169.254
      "http://[2002:7f00:2::]/", // 6to4 of 127.0.0.2
      "http://[2001:db8::1]/",
      "https://" + "a".repeat(70_000) + ".com/",
    ];
    for (const url of urls) {
      const created = await t.api("POST", "/app/bad-app/endpoint", { url });
      expect([413, 422], url.slice(0, 80)).toContain(created.status);
      if (created.status === 422) expect(locs(created), url).toContain("body.url");
      expectError(await t.api("PATCH", "/app/bad-app/endpoint/ep", { url }), created.status, `PATCH ${url.slice(0, 80)}`);
      expectError(await t.api("PUT", "/app/bad-app/endpoint/ep", { url }), created.status, `PUT ${url.slice(0, 80)}`);
    }
  });

  it("invalid secrets are 422s", async () => {
    const secrets = [
      "whsec_",
      "whsec_tooshort",
      "whsec_" + Buffer.alloc(23, 1).toString("base64"), // 23 bytes
      "whsec_" + Buffer.alloc(65, 1).toString("base64"), // 65 bytes
      "whsec_" + "*".repeat(44),
      "whsec_" + Buffer.alloc(32, 1).toString("base64url").replace(/=/g, "") + "-_",
      "sk_live_" + "a".repeat(40),
      "x".repeat(201),
    ];
    for (const secret of secrets) {
      expectError(await t.api("POST", "/app/bad-app/endpoint", { url: "https://a.example.com", secret }), 422, `create ${secret}`);
      expectError(await t.api("POST", "/app/bad-app/endpoint/ep/secret/rotate", { key: secret }), 422, `rotate ${secret}`);
      expectError(await t.api("PATCH", "/app/bad-app/endpoint/ep", { secret }), 422, `patch ${secret}`);
    }
    expectError(
      await t.api("POST", "/app/bad-app/endpoint", { url: "https://a.example.com", signing: "ed25519", secret: "whsec_" + Buffer.alloc(32, 1).toString("base64") }),
      422,
      "a secret for an ed25519 endpoint",
    );
  });

  it("invalid query values are 422s that name the parameter", async () => {
    const cases: [string, string][] = [
      ["/app?limit=0", "query.limit"],
      ["/app?limit=251", "query.limit"],
      ["/app?limit=abc", "query.limit"],
      ["/app?limit=", "query.limit"],
      ["/app?iterator=a%20b", "query.iterator"],
      ["/app?iterator=%00", "query.iterator"],
      ["/app?order=sideways", "query.order"],
      ["/event-type?include_archived=maybe", "query.include_archived"],
      ["/app/bad-app/msg?before=yesterday", "query.before"],
      ["/app/bad-app/msg?after=2026-02-30T00:00:00Z", "query.after"],
      ["/app/bad-app/msg?event_types=a%20b", "query.event_types.0"],
      ["/app/bad-app/msg?event_types=order.paid,bad%20name", "query.event_types.1"],
      ["/app/bad-app/msg?channel=a%20b", "query.channel"],
      ["/app/bad-app/msg?with_content=perhaps", "query.with_content"],
      [`/app/bad-app/attempt/endpoint/ep?status=9`, "query.status"],
      [`/app/bad-app/attempt/endpoint/ep?status_code_class=250`, "query.status_code_class"],
      [`/app/bad-app/attempt/msg/evt-1?endpoint_id=a%20b`, "query.endpoint_id"],
      [`/app/bad-app/endpoint/ep/msg?status=-1`, "query.status"],
      [`/app/bad-app/endpoint/ep/stats?since=notadate`, "query.since"],
      // A range that does not start before it ends matches nothing: said, not answered with an empty page.
      ["/app/bad-app/msg?after=2026-02-02T00:00:00Z&before=2026-02-01T00:00:00Z", "query.after"],
      [`/app/bad-app/attempt/endpoint/ep?after=2026-02-02T00:00:00Z&before=2026-02-01T00:00:00Z`, "query.after"],
      [`/app/bad-app/endpoint/ep/msg?after=2026-02-02T00:00:00Z&before=2026-02-01T00:00:00Z`, "query.after"],
      [`/app/bad-app/endpoint/ep/stats?since=2026-02-02T00:00:00Z&until=2026-02-01T00:00:00Z`, "query.since"],
      ["/app/bad-app/msg?after=2026-02-01T00:00:00Z&before=2026-02-01T00:00:00Z", "query.after"],
    ];
    for (const [path, loc] of cases) {
      const res = await t.api("GET", path);
      expectError(res, 422, path);
      expect(locs(res), path).toContain(loc);
    }
    expectError(await t.api("POST", "/app?get_if_exists=yes", { name: "x" }), 422, "get_if_exists");
    // A huge number gets one message, not zod's safe-integer one beside the bound.
    const huge = await t.api("GET", "/app?limit=99999999999999999999");
    expect(huge.body.detail).toEqual([expect.objectContaining({ loc: ["query", "limit"], msg: "must be at most 250" })]);
    const rate = await t.api("POST", "/app", { name: "x", rateLimit: 1e20 });
    expect(rate.body.detail).toEqual([expect.objectContaining({ loc: ["body", "rateLimit"], msg: "must be at most 65535" })]);
  });

  it("an iterator that is not one of the list's keys is a 422 naming it, on every list route", async () => {
    const lists = [
      "/app",
      "/environment/app-summary",
      "/environment/api-key",
      "/operational-webhook/endpoint",
      "/tasks",
      "/app/bad-app/endpoint",
      "/app/bad-app/msg",
      `/app/bad-app/msg/${msgId}/endpoint`,
      "/app/bad-app/attempt/endpoint/ep",
      `/app/bad-app/attempt/msg/${msgId}`,
      "/app/bad-app/endpoint/ep/msg",
      "/portal/app/bad-app/delivery",
    ];
    const foreign = newId("eventType"); // well formed, but no list here is keyed on event-type ids
    for (const list of lists)
      for (const iterator of ["garbage", `-garbage`, foreign, `-${foreign}`, "msg_notanid"]) {
        const path = `${list}?iterator=${iterator}`;
        const res = await t.api("GET", path);
        expectError(res, 422, path);
        expect(locs(res), path).toEqual(["query.iterator"]);
      }
    // What the lists answer still pages (their own iterators, both ways); event types are keyed on names.
    const page = await t.api("GET", "/app/bad-app/msg?limit=1");
    for (const iterator of [page.body.iterator, page.body.prevIterator, newId("message")])
      expect((await t.api("GET", `/app/bad-app/msg?iterator=${iterator}`)).status, iterator).toBe(200);
    expect((await t.api("GET", "/event-type?iterator=garbage")).status).toBe(200);
    expectError(await t.api("DELETE", "/event-type/order.paid?expunge=2"), 422, "expunge");
  });

  it("malformed path segments are 4xx, never 5xx", async () => {
    for (const seg of ["a%20b", "%E0%A4%A", "%FF", "%00", "%ZZ", "x".repeat(300), "%F0%9F%92%A9", "a%2Fb"]) {
      for (const path of [`/app/${seg}`, `/app/bad-app/endpoint/${seg}`, `/app/bad-app/msg/${seg}`, `/event-type/${seg}`]) {
        const res = await t.api("GET", path);
        expect(res.status, `${path} → ${res.status}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${path} → ${res.status}`).toBeLessThan(500);
      }
    }
  });

  it("unsupported methods are 405; unknown paths are JSON 404s", async () => {
    expect((await t.api("DELETE", "/app")).status).toBe(405);
    expect((await t.api("POST", "/app/bad-app", {})).status).toBe(405);
    expect((await t.api("PUT", "/app/bad-app/msg", {})).status).toBe(405);
    const unknown = await t.api("GET", "/no/such/thing");
    expectError(unknown, 404, "unknown path");
    expect(unknown.body.detail).toMatch(/No such API path/);
    expectError(await t.api("POST", "/app/bad-app/nope", {}), 404, "unknown sub-path");
  });

  it("authentication and authorization failures", async () => {
    const anon = await fetch(`${baseUrl()}/api/v1/app`);
    expect(anon.status).toBe(401);
    for (const authorization of ["Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Bearer nope", `Bearer ${t.apiKey}x`, "Token " + t.apiKey]) {
      const res = await fetch(`${baseUrl()}/api/v1/app`, { headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(await res.json()).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
    }
    // A read-only portal session can read its application but not change anything, and cannot use operator-only routes.
    const { session } = await portalSession(t, "bad-app", { readOnly: true });
    const asPortal = (method: string, path: string, body?: unknown) =>
      fetch(`${baseUrl()}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${session}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await asPortal("GET", "/app/bad-app/endpoint")).status).toBe(200);
    expect((await asPortal("POST", "/app/bad-app/endpoint", { url: "https://a.example.com" })).status).toBe(403);
    expect((await asPortal("PATCH", "/app/bad-app/endpoint/ep", { description: "x" })).status).toBe(403);
    expect((await asPortal("POST", "/app/bad-app/msg", { eventType: "order.paid", payload: {} })).status).toBe(403);
    expect((await asPortal("POST", "/event-type", { name: "x.y", description: "x" })).status).toBe(403);
    expect((await asPortal("DELETE", "/app/bad-app")).status).toBe(403);
    // The session and its token are rows of this tenant: drop them so the fingerprint compares like for like.
    await t.db.portalToken.deleteMany({ where: { applicationId: appId } });
  });
});

describe("conflicts", () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await createTenant("conflicts");
    await t.api("POST", "/app", { name: "C", uid: "c" });
    await t.api("POST", "/event-type", { name: "order.paid", description: "Paid" });
    await t.api("POST", "/app/c/endpoint", { url: "https://hooks.example.com/c", uid: "ep", disabled: true });
  });

  it("a duplicate eventId within 24 h is a 409 and stores nothing more", async () => {
    const first = await t.api("POST", "/app/c/msg", { eventType: "order.paid", payload: { n: 1 }, eventId: "dup" });
    expect(first.status).toBe(202);
    const second = await t.api("POST", "/app/c/msg", { eventType: "order.paid", payload: { n: 2 }, eventId: "dup" });
    expectError(second, 409, "duplicate eventId");
    expect(second.body.detail).toContain(first.body.id);
    expect(await t.db.message.count({ where: { environmentId: t.environmentId, eventId: "dup" } })).toBe(1);
    // eventIds are per environment: another tenant may use the same one.
    const other = await createTenant("conflicts-other");
    await other.api("POST", "/app", { name: "C", uid: "c" });
    await other.api("POST", "/event-type", { name: "order.paid", description: "Paid" });
    expect((await other.api("POST", "/app/c/msg", { eventType: "order.paid", payload: {}, eventId: "dup" })).status).toBe(202);
  });

  it("idempotency-key: replay on retry, 409 on another body, released after a failure", async () => {
    const key = { "idempotency-key": "k-1" };
    const a = await t.api("POST", "/app/c/msg", { eventType: "order.paid", payload: { k: 1 } }, key);
    const b = await t.api("POST", "/app/c/msg", { eventType: "order.paid", payload: { k: 1 } }, key);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(b.body).toEqual(a.body);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    const c = await t.api("POST", "/app/c/msg", { eventType: "order.paid", payload: { k: 2 } }, key);
    expectError(c, 409, "another body");
    expect(c.body.code).toBe("idempotency_conflict");
    const d = await t.api("POST", "/app/c/endpoint", { url: "https://hooks.example.com/d" }, key);
    expectError(d, 409, "another path");

    // A request that fails does not hold the key: fixing the request and retrying works.
    const k2 = { "idempotency-key": "k-2" };
    expectError(await t.api("POST", "/app/c/msg", { eventType: "no.such", payload: {} }, k2), 422, "first try");
    expect((await t.api("POST", "/app/c/msg", { eventType: "order.paid", payload: {} }, k2)).status).toBe(202);

    expectError(await t.api("POST", "/app/c/msg", { eventType: "order.paid", payload: {} }, { "idempotency-key": "k".repeat(300) }), 400, "long key");
  });

  it("a duplicate uid is a 409", async () => {
    expectError(await t.api("POST", "/app", { name: "C2", uid: "c" }), 409, "app uid");
    expectError(await t.api("POST", "/app/c/endpoint", { url: "https://hooks.example.com/e", uid: "ep" }), 409, "endpoint uid");
    await t.api("POST", "/app/c/endpoint", { url: "https://hooks.example.com/f", uid: "ep2" });
    expectError(await t.api("PATCH", "/app/c/endpoint/ep2", { uid: "ep" }), 409, "patch endpoint uid");
    expectError(await t.api("POST", "/event-type", { name: "order.paid", description: "again" }), 409, "event type");
  });

  it("a large payload is accepted with a warning; over 256 KiB it is refused", async () => {
    const res = await t.api("POST", "/app/c/msg", { eventType: "order.paid", payload: { blob: "x".repeat(100 * 1024) } });
    expect(res.status).toBe(202);
    expect(res.body.warnings?.[0]).toMatch(/20 KiB/);
    const small = await t.api("POST", "/app/c/msg", { eventType: "order.paid", payload: { id: "o_1" } });
    expect(small.body.warnings).toBeUndefined();
  });
});
