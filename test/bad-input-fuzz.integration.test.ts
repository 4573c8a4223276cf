import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/ids";
import { createApiKey } from "@/lib/environments/api-keys";
import { createTenant, baseUrl, type Tenant } from "./helpers/tenant";
import { snapshotEnvironment } from "./helpers/db-snapshot";
import { portalSession } from "./helpers/portal";

// Generated bad requests: a seeded (so reproducible) generator takes every route of the API and
// breaks it in random ways — auth, path ids, query values, bodies, headers, methods. Every
// request that could write carries at least one defect that must make it fail, so afterwards:
//   - no response was a 5xx,
//   - every write was refused with a 4xx (a 2xx would mean a defect slipped through validation),
//   - error bodies have the Svix shape,
//   - and not one row of either tenant changed (fingerprints before and after are equal).
// A failure prints the seed and the request, so it can be replayed.

const SEED = 0x5eed_2026;
const REQUESTS = 3000;
const CONCURRENCY = 8;

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const chance = (rng: Rng, p: number) => rng() < p;

type Param = "app_id" | "endpoint_id" | "msg_id" | "attempt_id" | "event_type_name";
type Route = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  /** Query parameters the route validates, with values it must refuse. */
  query?: Record<string, string[]>;
  /** A valid body, and corruptions each of which the route must refuse. */
  body?: () => Record<string, unknown>;
  corrupt?: Record<string, unknown[]>;
  operatorOnly?: boolean;
};

const BAD_LIST = { limit: ["0", "251", "-1", "abc", "", "1.5"], iterator: ["a b", "%00", "ü", "x".repeat(300)], order: ["up", "ASC", ""] };
const BAD_TIME = { before: ["yesterday", "2026-02-30T00:00:00Z", "1700000000"], after: ["now", "2026-13-01T00:00:00Z"] };
const BAD_FILTERS = { event_types: ["a b", "order.paid,bad name", "%00"], channel: ["a b", "x".repeat(200)], with_content: ["maybe", "2"] };
const BAD_STATUS = { status: ["9", "-1", "x"], status_code_class: ["250", "x"] };
const wrongTypes: unknown[] = [null, 42, -1, 1.5, true, "text", [], {}, [1, "a"], { nested: { deep: [null] } }];
const nastyStrings = ["", " ", "a b", "x".repeat(70_000), "\u0000", "a\u0000b", "💩", "<script>", "../..", "%00", "' OR 1=1 --"];

const msgBody = () => ({ eventType: "order.paid", payload: { id: "o_1", amount: 5 } });
const routes: Route[] = [
  { method: "GET", path: "/app", query: BAD_LIST },
  { method: "POST", path: "/app", body: () => ({ name: "x" }), corrupt: { name: [...wrongTypes.filter((v) => typeof v !== "string"), ""], uid: ["a b", "", newId("application"), 5], metadata: [{ a: 1 }, "m", [1]], rateLimit: [0, -1, 1.5, 70000, "5"], throttleRate: [0, 70000] }, query: { get_if_exists: ["yes", "2"] }, operatorOnly: true },
  { method: "GET", path: "/app/{app_id}" },
  { method: "PUT", path: "/app/{app_id}", body: () => ({ name: "x" }), corrupt: { name: [null, 1, ""], uid: ["a b", newId("application")], metadata: [{ a: [] }] }, operatorOnly: true },
  { method: "PATCH", path: "/app/{app_id}", body: () => ({ name: "x" }), corrupt: { name: [1, ""], rateLimit: [-1, "x"], metadata: ["x"] }, operatorOnly: true },
  { method: "DELETE", path: "/app/{app_id}", operatorOnly: true },
  { method: "GET", path: "/app/{app_id}/endpoint", query: BAD_LIST },
  {
    method: "POST",
    path: "/app/{app_id}/endpoint",
    body: () => ({ url: "https://hooks.example.com/f", disabled: true }),
    corrupt: {
      url: ["", "nope", "ftp://x.example.com", "http://127.0.0.2/", "http://[::1]/", "http://169.254.169.254/", "http://10.1.1.1/", 5],
      filterTypes: [[], "order.paid", ["a b"], ["no.such"], ["order.paid", "order.paid"]],
      channels: [[], ["a b"], "eu", Array.from({ length: 11 }, (_, i) => `c${i}`)],
      secret: ["whsec_x", "whsec_" + "!".repeat(40), "x".repeat(201), 7],
      version: [0, 2 ** 40, "1"],
      headers: [{ "Bad Name": "v" }, { "webhook-id": "x" }, { a: 1 }, "h"],
      retrySchedule: [[0], [-5], Array.from({ length: 30 }, () => 1), "1,2"],
      signing: ["rsa", 1],
      uid: [newId("endpoint"), "a b"],
    },
  },
  { method: "GET", path: "/app/{app_id}/endpoint/{endpoint_id}" },
  { method: "PUT", path: "/app/{app_id}/endpoint/{endpoint_id}", body: () => ({ url: "https://hooks.example.com/g", disabled: true }), corrupt: { url: ["", "http://127.0.0.2/", 1], filterTypes: [[], ["no.such"]], disabled: ["true"] } },
  { method: "PATCH", path: "/app/{app_id}/endpoint/{endpoint_id}", body: () => ({ description: "x" }), corrupt: { url: ["", "http://[fd00::1]/"], secret: ["whsec_", 1], filterTypes: [["no.such"], "x"], description: [1, null], version: [2 ** 40] } },
  { method: "DELETE", path: "/app/{app_id}/endpoint/{endpoint_id}" },
  { method: "GET", path: "/app/{app_id}/endpoint/{endpoint_id}/headers" },
  { method: "PUT", path: "/app/{app_id}/endpoint/{endpoint_id}/headers", body: () => ({ headers: { "X-A": "1" } }), corrupt: { headers: [{ "content-length": "1" }, { "X-A": "a\r\nb" }, { "": "x" }, null, ["x"]] } },
  { method: "PATCH", path: "/app/{app_id}/endpoint/{endpoint_id}/headers", body: () => ({ headers: { "X-A": null } }), corrupt: { headers: [{ "svix-id": "x" }, { "X-A": 5 }, "x"] } },
  { method: "GET", path: "/app/{app_id}/endpoint/{endpoint_id}/msg", query: { ...BAD_LIST, ...BAD_TIME, ...BAD_FILTERS, status: BAD_STATUS.status } },
  { method: "POST", path: "/app/{app_id}/endpoint/{endpoint_id}/recover", body: () => ({ since: "2020-01-01T00:00:00Z" }), corrupt: { since: ["2999-01-01T00:00:00Z", "yesterday", 5, null], until: ["2019-01-01T00:00:00Z", "x"] } },
  { method: "GET", path: "/app/{app_id}/endpoint/{endpoint_id}/secret" },
  { method: "POST", path: "/app/{app_id}/endpoint/{endpoint_id}/secret/rotate", body: () => ({}), corrupt: { key: ["whsec_", "x".repeat(201), 1], gracePeriodSeconds: [-1, 10 ** 9, "1"] } },
  { method: "POST", path: "/app/{app_id}/endpoint/{endpoint_id}/send-example", body: () => ({ eventType: "order.paid" }), corrupt: { eventType: ["no.such", "a b", 1, null], exampleIndex: [-1, 5000, "0"] } },
  { method: "GET", path: "/app/{app_id}/endpoint/{endpoint_id}/stats", query: { since: BAD_TIME.before, until: BAD_TIME.after } },
  { method: "GET", path: "/app/{app_id}/attempt/endpoint/{endpoint_id}", query: { ...BAD_LIST, ...BAD_TIME, ...BAD_FILTERS, ...BAD_STATUS } },
  { method: "GET", path: "/app/{app_id}/attempt/msg/{msg_id}", query: { ...BAD_LIST, ...BAD_TIME, ...BAD_FILTERS, ...BAD_STATUS, endpoint_id: ["a b", newId("endpoint")] } },
  { method: "GET", path: "/app/{app_id}/msg", query: { ...BAD_LIST, ...BAD_TIME, ...BAD_FILTERS } },
  {
    method: "POST",
    path: "/app/{app_id}/msg",
    body: msgBody,
    corrupt: {
      eventType: ["no.such", "a b", "", 1, null],
      payload: ["text", [1], null, 5, { nul: "a\u0000b" }],
      eventId: ["a b", newId("message"), "", 9],
      channels: [[], ["a b"], ["a", "a"], ["1", "2", "3", "4", "5", "6"]],
      payloadRetentionPeriod: [0, 1000, "90"],
      deliverAt: ["2030-01-01T00:00:00Z"],
      application: [{ name: "" }, "x"],
    },
    query: { with_content: ["maybe"] },
    operatorOnly: true,
  },
  { method: "GET", path: "/app/{app_id}/msg/{msg_id}", query: { with_content: ["maybe"] } },
  { method: "GET", path: "/app/{app_id}/msg/{msg_id}/attempt/{attempt_id}" },
  { method: "DELETE", path: "/app/{app_id}/msg/{msg_id}/attempt/{attempt_id}/content", operatorOnly: true },
  { method: "DELETE", path: "/app/{app_id}/msg/{msg_id}/content", operatorOnly: true },
  { method: "GET", path: "/app/{app_id}/msg/{msg_id}/endpoint", query: BAD_LIST },
  { method: "POST", path: "/app/{app_id}/msg/{msg_id}/endpoint/{endpoint_id}/resend" },
  { method: "POST", path: "/auth/app-portal-access/{app_id}", body: () => ({}), corrupt: { expiry: [0, -1, 10 ** 9, "1"], featureFlags: ["x", ["a b"], ["a", "a"]], application: [{ name: 1 }], readOnly: ["yes"] }, operatorOnly: true },
  { method: "POST", path: "/auth/app/{app_id}/expire-all", operatorOnly: true },
  { method: "GET", path: "/event-type", query: { ...BAD_LIST, include_archived: ["maybe"], with_content: ["x"] } },
  {
    method: "POST",
    path: "/event-type",
    body: () => ({ name: "fuzz.created", description: "x" }),
    corrupt: { name: ["nodot", "a b.c", "", 1, "order.paid"], description: [1, null], schemas: [{ v1: {} }, "s", { "1": "x" }], featureFlags: [["a", "b"], "x"], archived: ["no"] },
    operatorOnly: true,
  },
  { method: "GET", path: "/event-type/{event_type_name}" },
  { method: "PUT", path: "/event-type/{event_type_name}", body: () => ({ description: "x" }), corrupt: { description: [1, null], schemas: [[1]], deprecated: ["yes"] }, operatorOnly: true },
  { method: "PATCH", path: "/event-type/{event_type_name}", body: () => ({ description: "x" }), corrupt: { description: [2], archived: [0] }, operatorOnly: true },
  { method: "DELETE", path: "/event-type/{event_type_name}", query: { expunge: ["2", "maybe"] }, operatorOnly: true },
  { method: "POST", path: "/auth/logout" },
  { method: "GET", path: "/health" },
];

type Fixture = Record<Param, string[]>;
type Req = { method: string; path: string; headers: Record<string, string>; body?: string; write: boolean; defects: string[] };

function generate(rng: Rng, own: Fixture, victim: Fixture, keys: { own: string; revoked: string; readOnly: string }): Req {
  const route = pick(rng, routes);
  const defects: string[] = [];
  let method: string = route.method;
  const write = route.method !== "GET";
  const headers: Record<string, string> = {};

  // Decide the defects first; a write must get at least one that applies to its route.
  const kinds = ["auth", "param", "method", "path"];
  if (route.query) kinds.push("query");
  if (route.body) kinds.push("body", "body", "body");
  if (route.method === "POST" && route.body) kinds.push("idempotency");
  const chosen = new Set<string>();
  for (const k of kinds) if (chance(rng, 0.15)) chosen.add(k);
  if (write && chosen.size === 0) chosen.add(pick(rng, kinds));
  const hasParams = route.path.includes("{");
  if (chosen.has("param") && !hasParams) {
    chosen.delete("param");
    if (write && chosen.size === 0) chosen.add(route.body ? "body" : "auth");
  }

  // auth
  let authorization: string | undefined = `Bearer ${keys.own}`;
  if (chosen.has("auth")) {
    const options = [undefined, "Bearer", "Bearer garbage", `Bearer ${keys.revoked}`, `Basic ${keys.own}`, `Bearer ${keys.own}x`];
    // A read-only portal session may read, and log itself out: a defect only for other writes.
    if (write && route.path !== "/auth/logout") options.push(`Bearer ${keys.readOnly}`);
    authorization = pick(rng, options);
    defects.push(`auth:${authorization ?? "none"}`);
  } else if (route.path === "/auth/logout") defects.push("logout-with-api-key");
  if (authorization !== undefined) headers.authorization = authorization;

  // path parameters
  let path = route.path;
  const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as Param);
  const broken = chosen.has("param") ? pick(rng, params) : undefined;
  for (const p of params) {
    let value = pick(rng, own[p]);
    if (p === broken) {
      const unknownId: Record<Param, string> = {
        app_id: newId("application"),
        endpoint_id: newId("endpoint"),
        msg_id: newId("message"),
        attempt_id: newId("attempt"),
        event_type_name: "no.such.type",
      };
      const garbage = ["a%20b", "%FF", "x".repeat(300), "%F0%9F%92%A9", "%00"];
      // PUT creates what a uid or a new event-type name names: only ids and garbage are defects there.
      const options =
        route.method !== "PUT"
          ? [unknownId[p], ...victim[p], ...garbage]
          : p === "event_type_name"
            ? ["nodot", "a%20b.c", ...garbage]
            : [unknownId[p], ...victim[p].filter((v) => /^(app|ep)_/.test(v)), ...garbage];
      value = pick(rng, options);
      defects.push(`param:${p}=${value.slice(0, 40)}`);
    }
    path = path.replace(`{${p}}`, value);
  }

  // unknown path or unsupported method
  if (chosen.has("path")) {
    path = `/zz-${Math.floor(rng() * 1e9).toString(36)}${chance(rng, 0.5) ? path : ""}`;
    defects.push("unknown-path");
  } else if (chosen.has("method")) {
    const supported = new Set(routes.filter((r) => r.path === route.path).map((r) => r.method));
    const others = ["POST", "PUT", "PATCH", "DELETE"].filter((m) => !supported.has(m as Route["method"]));
    if (others.length > 0) {
      method = pick(rng, others);
      defects.push(`method:${method}`);
    }
  }

  // query
  const query: string[] = [];
  if (chance(rng, 0.3)) query.push(`${pick(rng, ["x_noise", "tag", "utm_source"])}=${encodeURIComponent(pick(rng, nastyStrings).slice(0, 50))}`);
  if (chosen.has("query") && route.query) {
    const name = pick(rng, Object.keys(route.query));
    const value = pick(rng, route.query[name]!);
    query.push(`${name}=${value.startsWith("%") ? value : encodeURIComponent(value)}`);
    defects.push(`query:${name}=${value.slice(0, 40)}`);
  }
  if (query.length) path += `?${query.join("&")}`;

  // body
  let body: string | undefined;
  if (route.body) {
    let value: unknown = route.body();
    if (chosen.has("body")) {
      const how = pick(rng, ["malformed", "toplevel", "field", "field", "field", "missing", "nul", "deep", "huge"]);
      switch (how) {
        case "malformed":
          body = pick(rng, ["{", "nul", '{"a":', "[1,", "{'a':1}", "", " ", '{"a":1}}', "\u0000"]);
          break;
        case "toplevel":
          value = pick(rng, [null, 1, "s", [], [value], true]);
          break;
        case "field": {
          const corrupt = route.corrupt ?? {};
          const fields = Object.keys(corrupt);
          if (fields.length > 0) {
            const f = pick(rng, fields);
            const v = pick(rng, corrupt[f]!);
            (value as Record<string, unknown>)[f] = v;
            defects.push(`body.${f}=${JSON.stringify(v)?.slice(0, 40)}`);
          } else value = [value];
          break;
        }
        case "missing": {
          const v = value as Record<string, unknown>;
          const required = Object.keys(v).filter((k) => !["disabled", "description", "headers"].includes(k) || route.path.endsWith("/headers"));
          if (required.length > 0 && !(route.method === "PATCH" && !route.path.endsWith("/headers"))) delete v[pick(rng, required)];
          else value = "not an object";
          break;
        }
        case "nul":
          value = { ...(value as object), [pick(rng, ["name", "description", "url", "payload", "headers"])]: "bad\u0000value" };
          break;
        case "deep": {
          let deep: unknown = 1;
          for (let i = 0; i < 70 + Math.floor(rng() * 100); i++) deep = chance(rng, 0.5) ? [deep] : { d: deep };
          value = { ...(value as object), payload: deep, metadata: deep, schemas: deep, headers: deep };
          break;
        }
        case "huge":
          value = { ...(value as object), blob: "x".repeat(256 * 1024 + Math.floor(rng() * 10_000)) };
          break;
      }
      defects.push(`body:${how}`);
    }
    body ??= JSON.stringify(value);
    if (chance(rng, 0.8)) headers["content-type"] = pick(rng, ["application/json", "application/json; charset=utf-8", "text/plain", "application/xml"]);
  } else if (chance(rng, 0.2)) {
    body = pick(rng, ["{", "garbage", JSON.stringify({ x: 1 })]);
  }

  if (method === "POST" && (chosen.has("idempotency") || chance(rng, 0.3))) {
    const long = chosen.has("idempotency");
    headers["idempotency-key"] = long ? "k".repeat(257 + Math.floor(rng() * 100)) : `fuzz-${Math.floor(rng() * 20)}`;
    if (long) defects.push("idempotency-key too long");
  }
  if (chance(rng, 0.2)) headers["x-request-id"] = pick(rng, ["a", "💩".repeat(3), "x".repeat(4000)]).replace(/[^\x20-\x7e]/g, "?");
  if (method === "GET" && body !== undefined) body = undefined;

  return { method, path, headers, ...(body !== undefined ? { body } : {}), write: write || method !== route.method, defects };
}

describe("generated bad requests", () => {
  let own: Tenant;
  let victim: Tenant;
  let ownIds: Fixture;
  let victimIds: Fixture;
  let keys: { own: string; revoked: string; readOnly: string };

  async function fixture(t: Tenant, prefix: string, eventType: string): Promise<Fixture> {
    const app = (await t.api("POST", "/app", { name: prefix, uid: `${prefix}-app` })).body;
    await t.api("POST", "/event-type", { name: eventType, description: "x" });
    // Paused: no deliveries, so the worker never touches these rows during the run.
    const ep = (await t.api("POST", `/app/${app.id}/endpoint`, { url: "https://hooks.example.com/f", uid: `${prefix}-ep`, disabled: true })).body;
    const msg = (await t.api("POST", `/app/${app.id}/msg`, { eventType, payload: { a: 1 }, eventId: `${prefix}-evt` })).body;
    const deliveryId = newId("delivery");
    await t.db.delivery.create({ data: { id: deliveryId, environmentId: t.environmentId, applicationId: app.id, endpointId: ep.id, messageId: msg.id, eventType, status: "failed" } });
    const attempt = newId("attempt");
    await t.db.attempt.create({
      data: { id: attempt, environmentId: t.environmentId, applicationId: app.id, endpointId: ep.id, messageId: msg.id, deliveryId, eventType, url: ep.url, status: "fail", requestHeaders: {}, requestBody: "{}", responseStatus: 500, durationMs: 3 },
    });
    return { app_id: [app.id, app.uid], endpoint_id: [ep.id, ep.uid], msg_id: [msg.id, msg.eventId], attempt_id: [attempt], event_type_name: [eventType] };
  }

  beforeAll(async () => {
    own = await createTenant("fuzz");
    victim = await createTenant("fuzz-victim");
    ownIds = await fixture(own, "own", "order.paid");
    victimIds = await fixture(victim, "victim", "victim.only");
    const revoked = await createApiKey(own.environmentId, "revoked");
    await own.db.apiKey.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
    const { session } = await portalSession(own, ownIds.app_id[0]!, { readOnly: true });
    keys = { own: own.apiKey, revoked: revoked.key, readOnly: session };
  });

  it(`${REQUESTS} seeded bad requests: no 5xx, no write accepted, nothing written`, async () => {
    const before = [await snapshotEnvironment(own.environmentId), await snapshotEnvironment(victim.environmentId)];
    const rng = mulberry32(SEED);
    const requests = Array.from({ length: REQUESTS }, () => generate(rng, ownIds, victimIds, keys));
    const failures: string[] = [];
    const statuses = new Map<number, number>();

    let next = 0;
    async function lane() {
      while (next < requests.length) {
        const i = next++;
        const r = requests[i]!;
        const res = await fetch(`${baseUrl()}/api/v1${r.path}`, { method: r.method, headers: r.headers, body: r.body ?? null });
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const where = `#${i} (seed ${SEED}) ${r.method} ${r.path.slice(0, 160)} [${r.defects.join("; ")}] → ${res.status} ${text.slice(0, 200)}`;
        if (res.status >= 500) failures.push(`5xx: ${where}`);
        else if (r.write && res.status < 400) failures.push(`write accepted: ${where}`);
        else if (res.status >= 400 && res.status !== 405) {
          let shape = false;
          try {
            const b = JSON.parse(text) as { code?: unknown; detail?: unknown };
            shape = (typeof b.code === "string" && typeof b.detail === "string") || Array.isArray(b.detail);
          } catch {
            shape = false;
          }
          if (!shape) failures.push(`error body not in Svix shape: ${where}`);
        }
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));

    expect(failures.slice(0, 20), `${failures.length} failures`).toEqual([]);
    expect([...statuses.keys()].every((s) => s < 500)).toBe(true);
    // The run really exercised the error paths (and some reads succeeded).
    for (const s of [400, 401, 403, 404, 405, 413, 422]) expect(statuses.get(s) ?? 0, `status ${s}`).toBeGreaterThan(0);
    expect(await snapshotEnvironment(own.environmentId)).toEqual(before[0]);
    expect(await snapshotEnvironment(victim.environmentId)).toEqual(before[1]);
  }, 240_000);
});
