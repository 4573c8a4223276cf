import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, baseUrl, type Tenant } from "./helpers/tenant";
import { portalSession } from "./helpers/portal";
import { startReceiver } from "./helpers/receiver";
import { waitUntil } from "./helpers/delivery";

// Every operation of /api/v1/openapi.json behaves as documented, called over HTTP like a client
// generated from the document would: its security (no credentials: 401; a portal session on an
// operator-only route: 403; on the others: never 401/403), its request body (a body missing a
// required field is a 422 at that field; a route without a documented body never reads one), its
// query parameters (a bad value is a 422 at that parameter), and its status codes (every answer
// seen here is one the operation documents, every GET answers a documented 2xx for real ids, with
// a body matching the documented schema). A route added without its definition, or whose handler
// does something its definition does not say, fails here by name.

type Param = { name: string; in: string; schema: Record<string, unknown> };
type Operation = {
  operationId: string;
  security: Record<string, unknown>[];
  parameters?: Param[];
  requestBody?: { content: { "application/json": { schema: Record<string, unknown> } } };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };

const METHODS = ["get", "post", "put", "patch", "delete"];
/** Well-formed ids and uids that name nothing. */
const BOGUS: Record<string, string> = { task_id: `qtask_${"0".repeat(26)}` };

async function send(method: string, path: string, opts: { token?: string | null; body?: string; query?: string } = {}) {
  const ac = new AbortController();
  const res = await fetch(`${baseUrl()}${path}${opts.query ? `?${opts.query}` : ""}`, {
    method: method.toUpperCase(),
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: opts.body,
    signal: ac.signal,
  });
  const type = res.headers.get("content-type") ?? "";
  let body: any = null;
  if (type.includes("event-stream")) ac.abort(); // a stream: its status is what matters here
  else if (type.startsWith("application/json")) body = await res.json();
  else await res.arrayBuffer();
  return { status: res.status, body, type };
}

/** Looks `value` up among the operation's documented responses (2XX-style ranges included). */
function documented(op: Operation, status: number): boolean {
  return String(status) in op.responses || `${String(status)[0]}XX` in op.responses;
}

/** A value the parameter's schema refuses, when the schema refuses anything. */
function badValue(schema: Record<string, unknown>): string | null {
  const options = (schema.anyOf as Record<string, unknown>[] | undefined) ?? [schema];
  const strict = options.every((s) => s.type === "integer" || s.type === "number" || s.type === "boolean" || s.enum || s.format || s.pattern);
  return strict ? "~not~valid~" : null;
}

describe("every route matches /api/v1/openapi.json", () => {
  let t: Tenant;
  let doc: Doc;
  let portal: string;
  const ops: { path: string; method: string; op: Operation }[] = [];
  const ids: Record<string, string> = {};
  const seen: string[] = [];

  /** The path with real ids of the world below (or BOGUS ones), e.g. /api/v1/app/app_x/endpoint/ep_y. */
  function fill(path: string, real: boolean): string {
    return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      if (!real) return BOGUS[name] ?? "nothing-here";
      if (name === "endpoint_id" && path.includes("/listen/")) return ids.listen_endpoint_id!;
      if (name === "endpoint_id" && path.includes("/capture/")) return ids.capture_endpoint_id!;
      if (name === "endpoint_id" && path.includes("/operational-webhook/")) return ids.operational_endpoint_id!;
      const v = ids[name];
      if (!v) throw new Error(`no id for {${name}} in ${path}`);
      return encodeURIComponent(v);
    });
  }

  function record(path: string, method: string, op: Operation, what: string, status: number) {
    seen.push(`${method.toUpperCase()} ${path}`);
    expect.soft(documented(op, status), `${method.toUpperCase()} ${path} (${what}) answered ${status}, which it does not document`).toBe(true);
  }

  beforeAll(async () => {
    doc = (await (await fetch(`${baseUrl()}/api/v1/openapi.json`)).json()) as Doc;
    for (const [path, byMethod] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(byMethod)) if (METHODS.includes(method)) ops.push({ path, method, op });

    // A small world with one of everything, so every path has real ids to read.
    t = await createTenant("routes-vs-document");
    const receiver = await startReceiver();
    expect((await t.api("POST", "/event-type", { name: "order.paid", description: "Paid", schemas: { "1": { type: "object", properties: { id: { type: "string" } } } } })).status).toBe(201);
    const app = await t.api("POST", "/app", { name: "World", uid: "world" });
    ids.app_id = app.body.id;
    ids.event_type_name = "order.paid";
    ids.endpoint_id = (await t.api("POST", `/app/${ids.app_id}/endpoint`, { url: receiver.url })).body.id;
    ids.msg_id = (await t.api("POST", `/app/${ids.app_id}/msg`, { eventType: "order.paid", payload: { id: "1" } })).body.id;
    const attempts = await waitUntil("an attempt", () => t.api("GET", `/app/${ids.app_id}/attempt/msg/${ids.msg_id}`), (r) => r.body.data?.length > 0);
    ids.attempt_id = attempts.body.data[0].id;
    ids.listen_endpoint_id = (await t.api("POST", `/app/${ids.app_id}/listen`, {})).body.endpoint.id;
    ids.capture_endpoint_id = (await t.api("POST", `/app/${ids.app_id}/capture`, {})).body.endpointId;
    ids.operational_endpoint_id = (await t.api("POST", "/operational-webhook/endpoint", { url: receiver.url })).body.id;
    const exportTask = await t.api("POST", `/app/${ids.app_id}/attempt/export`, { format: "ndjson" });
    ids.task_id = exportTask.body.task_id;
    await waitUntil("the export", () => t.api("GET", `/tasks/${ids.task_id}`), (r) => r.body.status === "completed", 30_000);
    portal = (await portalSession(t, ids.app_id!)).session;
    ids.delivery_id = (await send("get", `/api/v1/portal/app/${ids.app_id}/delivery`, { token: portal })).body.data[0].id;
    await receiver.close();
  }, 90_000);

  it("documents every route the server has, and only those", () => {
    expect(ops.length).toBeGreaterThan(60);
  });

  it("security: who may call each operation", async () => {
    for (const { path, method, op } of ops) {
      if (op.security.length === 0) continue;
      const url = fill(path, false);
      const none = await send(method, url);
      expect.soft(none.status, `${method.toUpperCase()} ${path} without credentials`).toBe(401);
      record(path, method, op, "no credentials", none.status);
      const operatorOnly = op.security.every((s) => "apiKey" in s);
      if (path.endsWith("/auth/logout")) continue; // a session may end only itself: tried last, below
      const asPortal = await send(method, url, { token: portal, ...(op.requestBody ? { body: "{}" } : {}) });
      if (operatorOnly) expect.soft(asPortal.status, `${method.toUpperCase()} ${path} is documented operator-only`).toBe(403);
      else expect.soft([401, 403], `${method.toUpperCase()} ${path} is documented as open to portal sessions`).not.toContain(asPortal.status);
      record(path, method, op, "portal session", asPortal.status);
    }
    const logout = ops.find((o) => o.path === "/api/v1/auth/logout")!;
    const own = (await portalSession(t, ids.app_id!)).session;
    record(logout.path, logout.method, logout.op, "portal session", (await send("post", logout.path, { token: own })).status);
  });

  it("request bodies: the documented schema is the one enforced, and no other route reads a body", async () => {
    for (const { path, method, op } of ops) {
      const url = fill(path, false);
      const schema = op.requestBody?.content["application/json"].schema;
      if (!schema) {
        // (fetch sends no body with a GET: nothing to show there.)
        const res = await send(method, url, { token: t.apiKey, ...(method === "get" ? {} : { body: "{not json" }) });
        expect.soft(res.status, `${method.toUpperCase()} ${path} documents no body but parsed one`).not.toBe(400);
        record(path, method, op, "undocumented body", res.status);
        continue;
      }
      const notObject = await send(method, url, { token: t.apiKey, body: "[1]" });
      record(path, method, op, "a body that is not what the schema says", notObject.status);
      if (schema.type === "object") {
        expect.soft(notObject.status, `${method.toUpperCase()} ${path} accepted [1] as its body`).toBe(422);
        expect.soft(notObject.body?.detail?.[0]?.loc?.[0], `${method.toUpperCase()} ${path}`).toBe("body");
      }
      const required = (schema.required as string[] | undefined) ?? [];
      if (required.length === 0) continue;
      const missing = await send(method, url, { token: t.apiKey, body: "{}" });
      record(path, method, op, "a body without its required fields", missing.status);
      expect.soft(missing.status, `${method.toUpperCase()} ${path} requires ${required.join(", ")}`).toBe(422);
      const locs = ((missing.body?.detail ?? []) as { loc: string[] }[]).map((d) => d.loc.join("."));
      expect.soft(locs, `${method.toUpperCase()} ${path}`).toEqual(expect.arrayContaining(required.map((r) => `body.${r}`)));
    }
  });

  it("query parameters: a value the documented schema refuses is a 422 at that parameter", async () => {
    for (const { path, method, op } of ops)
      for (const p of op.parameters ?? []) {
        if (p.in !== "query") continue;
        const bad = badValue(p.schema);
        if (!bad) continue;
        const res = await send(method, fill(path, false), { token: t.apiKey, query: `${p.name}=${bad}`, ...(op.requestBody ? { body: "{}" } : {}) });
        record(path, method, op, `bad ${p.name}`, res.status);
        expect.soft(res.status, `${method.toUpperCase()} ${path}?${p.name}=${bad}`).toBe(422);
        expect.soft(((res.body?.detail ?? []) as { loc: string[] }[]).some((d) => d.loc[0] === "query" && d.loc[1] === p.name), `${path} ${p.name}: ${JSON.stringify(res.body)}`).toBe(true);
      }
  });

  it("reads: every GET answers a documented 2xx for real ids, with the documented body", async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ components: doc.components }, "doc");
    for (const { path, method, op } of ops) {
      if (method !== "get") continue;
      const url = fill(path, true);
      let res = await send(method, url, { token: t.apiKey });
      if (res.status === 403) res = await send(method, url, { token: portal }); // portal-only reads
      record(path, method, op, "real ids", res.status);
      expect.soft(res.status >= 200 && res.status < 300, `GET ${path} answered ${res.status}: ${JSON.stringify(res.body)?.slice(0, 300)}`).toBe(true);
      const schema = op.responses[String(res.status)]?.content?.["application/json"]?.schema;
      if (!schema || !res.type.startsWith("application/json")) continue;
      const validate = ajv.compile({ $ref: `doc${String(schema.$ref)}` });
      expect.soft(validate(res.body), `GET ${path}: ${JSON.stringify(validate.errors)?.slice(0, 600)}`).toBe(true);
    }
  }, 60_000);

  it("every operation was called", () => {
    const missed = ops.map((o) => `${o.method.toUpperCase()} ${o.path}`).filter((k) => !seen.includes(k));
    expect.soft(missed).toEqual([]);
  });
});
