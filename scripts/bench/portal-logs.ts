// npm run bench -- portal-logs: the portal's delivery log with a million attempts. Seeds a month
// of history for one application (about 1,000,000 attempts over ~870,000 deliveries of ~290,000
// messages to 10 endpoints), plus a small second application, with multi-row INSERTs of unnest()ed
// arrays (ids from newId(kind, at) at explicit historical times, secondary indexes dropped during
// the load and rebuilt after, as a bulk load would). Then, through the real web server and a
// portal session, measures the time to the first page of the log for a range of filter
// combinations, a deep page, the failure groups and the 24 h endpoint health, and prints the
// query plans of the log's scans.
//
//   BENCH_ATTEMPTS=200000 npm run bench -- portal-logs    (a smaller run)
import pg from "pg";
import { env } from "../../lib/env";
import { idAtTime, newId } from "../../lib/ids";
import { pgConnection } from "../../lib/pg-connection";
import { createApiKey } from "../../lib/environments/api-keys";
import { createEnvironment } from "../../lib/environments/ensure-environment";
import { startWeb, summarize } from "./harness";

const TARGET_ATTEMPTS = Number(process.env.BENCH_ATTEMPTS ?? 1_000_000);
const DAYS = 30;
const ENDPOINTS = 10;
const EVENT_TYPES = ["order.created", "order.paid", "order.shipped", "invoice.created", "customer.updated"];
const RUNS = 25;
const BATCH = 20_000;

const pool = new pg.Pool({ ...pgConnection(env().DATABASE_URL), max: 4 });
const t0 = performance.now();
const elapsed = () => `${((performance.now() - t0) / 1000).toFixed(0)}s`;

// ---------------------------------------------------------------------------------------------
// Setup through the API: tenant, applications, catalog, endpoints, a portal link.
const environment = await createEnvironment("bench-portal-logs");
const { key } = await createApiKey(environment.id, "bench");
const web = await startWeb();
async function api(method: string, path: string, body?: unknown, token = key) {
  const res = await fetch(`${web.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}
for (const name of EVENT_TYPES) await api("POST", "/event-type", { name, description: name });
const app = (await api("POST", "/app", { name: "Big customer" })) as { id: string };
const small = (await api("POST", "/app", { name: "Small customer" })) as { id: string };
const endpoints: string[] = [];
// Paused: no worker runs, and nothing here is meant to be delivered again.
for (let i = 0; i < ENDPOINTS; i++)
  endpoints.push(((await api("POST", `/app/${app.id}/endpoint`, { url: `https://hooks.example.com/e${i}`, disabled: true })) as { id: string }).id);
const smallEndpoint = ((await api("POST", `/app/${small.id}/endpoint`, { url: "https://hooks.example.com/small", disabled: true })) as { id: string }).id;

// ---------------------------------------------------------------------------------------------
// History generation.
type Cols = Record<string, unknown[]>;
const cols = (...names: string[]): Cols => Object.fromEntries(names.map((n) => [n, []]));
const MSG = ["id", "environment_id", "application_id", "event_type", "event_id", "payload", "channels", "created_at"];
const DLV = ["id", "environment_id", "application_id", "endpoint_id", "message_id", "event_type", "status", "attempt_count", "next_attempt_at", "last_attempt_at", "last_status_code", "dead_reason", "dead_at", "created_at", "updated_at"];
const ATT = ["id", "environment_id", "application_id", "endpoint_id", "message_id", "delivery_id", "event_type", "url", "status", "trigger_type", "request_headers", "request_body", "response_status", "response_headers", "response_body", "duration_ms", "error_class", "created_at"];
const TYPES: Record<string, string> = {
  payload: "jsonb",
  request_headers: "jsonb",
  response_headers: "jsonb",
  channels: "text[]",
  trigger_type: '"TriggerType"',
  attempt_count: "int",
  last_status_code: "int",
  response_status: "int",
  duration_ms: "int",
  created_at: "timestamptz",
  updated_at: "timestamptz",
  next_attempt_at: "timestamptz",
  last_attempt_at: "timestamptz",
  dead_at: "timestamptz",
};

async function insert(table: string, names: string[], c: Cols, statusType: string) {
  const n = c[names[0]!]!.length;
  if (n === 0) return;
  const casts = names.map((name, i) => `c${i}::${name === "status" ? statusType : (TYPES[name] ?? "text")}`);
  // Every column travels as text[]; array columns as array literals ("{}").
  const params = names.map((name) => c[name]!);
  await pool.query(
    `INSERT INTO ${table} (${names.join(", ")}) SELECT ${casts.join(", ")} FROM unnest(${names.map((_, i) => `$${i + 1}::text[]`).join(", ")}) AS u(${names.map((_, i) => `c${i}`).join(", ")})`,
    params,
  );
  for (const k of names) c[k] = [];
}

const rand = (n: number) => Math.floor(Math.random() * n);
const iso = (ms: number) => new Date(ms).toISOString();
const now = Date.now();
const start = now - DAYS * 86400_000;

type Plan = { status: "succeeded" | "failed" | "pending" | "canceled"; codes: number[] };
function planDelivery(): Plan {
  const r = Math.random();
  if (r < 0.85) return { status: "succeeded", codes: [200] };
  if (r < 0.93) return { status: "succeeded", codes: [503, 200] };
  if (r < 0.95) return { status: "succeeded", codes: [0, 500, 200] };
  if (r < 0.97) return { status: "failed", codes: [500, 500, 502, 0, 500] };
  if (r < 0.98) return { status: "failed", codes: [410] };
  if (r < 0.99) return { status: "pending", codes: [503, 503] };
  if (r < 0.995) return { status: "pending", codes: [] };
  return { status: "canceled", codes: [] };
}

async function dropIndexes(): Promise<string[]> {
  const { rows } = await pool.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('message', 'delivery', 'attempt') AND indexname NOT LIKE '%_pkey'`,
  );
  for (const r of rows) await pool.query(`DROP INDEX "${r.indexname}"`);
  return rows.map((r) => r.indexdef);
}

async function seed(appId: string, eps: string[], attemptsWanted: number, label: string) {
  const m = cols(...MSG);
  const d = cols(...DLV);
  const a = cols(...ATT);
  let attempts = 0;
  let deliveries = 0;
  let messages = 0;
  // Messages in time order over the month; each goes to 1–5 endpoints.
  const perMessage = 3 * 1.2; // ~attempts per message: 3 endpoints on average, 1.2 attempts each
  const totalMessages = Math.ceil(attemptsWanted / perMessage);
  for (let i = 0; i < totalMessages; i++) {
    const at = start + Math.floor(((now - start - 60_000) * i) / totalMessages);
    const msgId = newId("message", at);
    const eventType = EVENT_TYPES[rand(EVENT_TYPES.length)]!;
    m.id!.push(msgId);
    m.environment_id!.push(environment.id);
    m.application_id!.push(appId);
    m.event_type!.push(eventType);
    m.event_id!.push(`evt_${label}_${i}`);
    m.payload!.push(JSON.stringify({ order_id: `ord_${i}`, amount: 100 + (i % 9000), currency: "EUR" }));
    m.channels!.push("{}");
    m.created_at!.push(iso(at));
    messages++;
    const fan = 1 + rand(Math.min(5, eps.length));
    const offset = rand(eps.length);
    for (let k = 0; k < fan; k++) {
      const endpointId = eps[(offset + k) % eps.length]!;
      const plan = planDelivery();
      const dAt = at + 5 + k;
      const deliveryId = newId("delivery", dAt);
      const last = plan.codes.length ? dAt + (plan.codes.length - 1) * 60_000 : null;
      d.id!.push(deliveryId);
      d.environment_id!.push(environment.id);
      d.application_id!.push(appId);
      d.endpoint_id!.push(endpointId);
      d.message_id!.push(msgId);
      d.event_type!.push(eventType);
      d.status!.push(plan.status);
      d.attempt_count!.push(String(plan.codes.length));
      d.next_attempt_at!.push(plan.status === "pending" ? iso(now + 3600_000) : null);
      d.last_attempt_at!.push(last ? iso(last) : null);
      d.last_status_code!.push(plan.codes.length ? String(plan.codes[plan.codes.length - 1]) : null);
      d.dead_reason!.push(plan.status === "failed" ? (plan.codes[0] === 410 ? "gone" : "exhausted") : null);
      d.dead_at!.push(plan.status === "failed" && last ? iso(last) : null);
      d.created_at!.push(iso(dAt));
      d.updated_at!.push(iso(last ?? dAt));
      deliveries++;
      plan.codes.forEach((code, j) => {
        const aAt = dAt + j * 60_000;
        a.id!.push(newId("attempt", aAt));
        a.environment_id!.push(environment.id);
        a.application_id!.push(appId);
        a.endpoint_id!.push(endpointId);
        a.message_id!.push(msgId);
        a.delivery_id!.push(deliveryId);
        a.event_type!.push(eventType);
        a.url!.push(`https://hooks.example.com/${endpointId}`);
        a.status!.push(code >= 200 && code < 300 ? "success" : "fail");
        a.trigger_type!.push("scheduled");
        a.request_headers!.push(JSON.stringify({ "content-type": "application/json", "webhook-id": msgId, "webhook-timestamp": String(Math.floor(aAt / 1000)), "webhook-signature": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=" }));
        a.request_body!.push(`{"id":"${msgId}","type":"${eventType}","data":{"order_id":"ord_${i}"}}`);
        a.response_status!.push(String(code));
        a.response_headers!.push(code === 0 ? null : '{"content-type":"application/json"}');
        a.response_body!.push(code === 0 ? null : `{"status":${code}}`);
        a.duration_ms!.push(String(20 + rand(400)));
        a.error_class!.push(code === 0 ? "timeout" : null);
        a.created_at!.push(iso(aAt));
        attempts++;
      });
    }
    if (a.id!.length >= BATCH) {
      await insert("message", MSG, m, "text");
      await insert("delivery", DLV, d, '"DeliveryStatus"');
      await insert("attempt", ATT, a, '"AttemptStatus"');
      if (messages % (BATCH * 5) < BATCH / 2) console.log(`  ${label}: ${attempts} attempts, ${deliveries} deliveries, ${messages} messages (${elapsed()})`);
    }
  }
  await insert("message", MSG, m, "text");
  await insert("delivery", DLV, d, '"DeliveryStatus"');
  await insert("attempt", ATT, a, '"AttemptStatus"');
  return { attempts, deliveries, messages };
}

console.log(`seeding ~${TARGET_ATTEMPTS} attempts (indexes dropped during the load)…`);
const indexDefs = await dropIndexes();
const big = await seed(app.id, endpoints, TARGET_ATTEMPTS, "big");
const little = await seed(small.id, [smallEndpoint], 2_000, "small");
console.log(`  loaded ${big.attempts} + ${little.attempts} attempts, ${big.deliveries + little.deliveries} deliveries, ${big.messages + little.messages} messages (${elapsed()})`);
for (const def of indexDefs) await pool.query(def);
await pool.query("ANALYZE message; ANALYZE delivery; ANALYZE attempt;");
console.log(`  ${indexDefs.length} indexes rebuilt and tables analysed (${elapsed()})`);

// ---------------------------------------------------------------------------------------------
// Measurements through the real API with a portal session.
const link = (await api("POST", `/auth/app-portal-access/${app.id}`, {})) as { token: string };
const session = ((await api("POST", "/auth/portal-session", { token: link.token })) as { session: string }).session;
const smallLink = (await api("POST", `/auth/app-portal-access/${small.id}`, {})) as { token: string };
const smallSession = ((await api("POST", "/auth/portal-session", { token: smallLink.token })) as { session: string }).session;

const { rows: picks } = await pool.query<{ id: string; event_id: string }>(
  `SELECT id, event_id FROM message WHERE application_id = $1 ORDER BY id LIMIT 1 OFFSET $2`,
  [app.id, Math.floor(big.messages / 3)],
);
const pick = picks[0]!;
// Payload search: an order id of a message three days old (inside the default 7-day window).
const { rows: recent } = await pool.query<{ order_id: string; id: string }>(
  `SELECT id, payload->>'order_id' AS order_id FROM message WHERE application_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2`,
  [app.id, Math.floor((big.messages * 3) / DAYS)],
);
const recentOrder = recent[0]!.order_id;
const oldOrder = (await pool.query<{ order_id: string }>(`SELECT payload->>'order_id' AS order_id FROM message WHERE id = $1`, [pick.id])).rows[0]!.order_id;
const { rows: mids } = await pool.query<{ id: string }>(`SELECT id FROM delivery WHERE application_id = $1 ORDER BY id LIMIT 1 OFFSET $2`, [app.id, Math.floor(big.deliveries / 2)]);
const deepCursor = mids[0]!.id;
const day = (n: number) => new Date(now - n * 86400_000).toISOString();

const cases: [string, string, string?][] = [
  ["no filter (newest page)", ""],
  ["status=succeeded", "status=succeeded"],
  ["status=dead_lettered", "status=dead_lettered"],
  ["status=failed (retrying)", "status=failed"],
  ["status=pending", "status=pending"],
  ["status=failed,dead_lettered", "status=failed,dead_lettered"],
  ["endpoint", `endpoint_id=${endpoints[3]}`],
  ["endpoint + dead_lettered", `endpoint_id=${endpoints[3]}&status=dead_lettered`],
  ["event type", "event_types=order.paid"],
  ["event type + dead_lettered", "event_types=order.paid&status=dead_lettered"],
  ["endpoint + event type + succeeded", `endpoint_id=${endpoints[3]}&event_types=order.paid&status=succeeded`],
  ["last 24 h", `after=${day(1)}`],
  ["a day 3 weeks ago", `after=${day(21)}&before=${day(20)}`],
  ["a day 3 weeks ago + dead_lettered + event type", `after=${day(21)}&before=${day(20)}&status=dead_lettered&event_types=invoice.created`],
  ["search by message id", `search=${pick.id}`],
  ["search by event id", `search=${pick.event_id}`],
  ["search by the start of a message id", `search=${pick.id.slice(0, 12)}`],
  ["payload: one order id (rare), last 7 days", `payload=${encodeURIComponent(`"${recentOrder}"`)}`],
  ["payload: one order id, a week 3 weeks ago", `payload=${encodeURIComponent(`"${oldOrder}"`)}&after=${day(24)}&before=${day(17)}`],
  ["payload: in every payload (EUR), last 7 days", "payload=EUR"],
  ["payload: no match, last 7 days", "payload=no-such-text"],
  ["payload: rare term + dead_lettered", `payload=${encodeURIComponent(`"${recentOrder}"`)}&status=dead_lettered`],
  ["deep page (iterator mid-month)", `iterator=${deepCursor}`],
  ["deep page + dead_lettered", `iterator=${deepCursor}&status=dead_lettered`],
  ["small app, no filter", "", smallSession],
  ["small app, dead_lettered", "status=dead_lettered", smallSession],
];

async function time(path: string, token: string) {
  const t = performance.now();
  const res = await fetch(`${web.baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { data?: unknown[] };
  const ms = performance.now() - t;
  // 422: a payload search too broad for its statement timeout (reported, not a failure of the bench).
  if (res.status !== 200 && res.status !== 422) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return { ms, rows: res.status === 422 ? -422 : (body.data?.length ?? 0) };
}

console.log(`\ntime to the first page of 50 (${RUNS} runs each, after one warm-up), through the API:`);
console.log(`${"filter".padEnd(50)} ${"rows".padStart(5)} ${"p50 ms".padStart(8)} ${"p90 ms".padStart(8)} ${"max ms".padStart(8)}`);
const report: Record<string, unknown> = {};
for (const [name, query, token] of cases) {
  const appId = token === smallSession ? small.id : app.id;
  const path = `/portal/app/${appId}/delivery?limit=50${query ? `&${query}` : ""}`;
  const first = await time(path, token ?? session);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push((await time(path, token ?? session)).ms);
  const s = summarize(samples);
  report[name] = { rows: first.rows, ...s };
  console.log(`${name.padEnd(50)} ${String(first.rows).padStart(5)} ${s.p50.toFixed(1).padStart(8)} ${s.p90.toFixed(1).padStart(8)} ${s.max.toFixed(1).padStart(8)}`);
}
for (const [name, path] of [
  ["failure groups", `/portal/app/${app.id}/failure`],
  ["endpoint health (24 h)", `/portal/app/${app.id}/endpoint-health`],
] as const) {
  await time(path, session);
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) samples.push((await time(path, session)).ms);
  const s = summarize(samples);
  console.log(`${name.padEnd(50)} ${"".padStart(5)} ${s.p50.toFixed(1).padStart(8)} ${s.p90.toFixed(1).padStart(8)} ${s.max.toFixed(1).padStart(8)}`);
}

// The scans behind the log, as the route issues them (Prisma: one query per branch).
console.log("\nquery plans (EXPLAIN ANALYZE) of representative scans:");
for (const [name, sql, params] of [
  ["newest, one status branch", `SELECT id FROM delivery WHERE application_id = $1 AND status = 'succeeded' ORDER BY id DESC LIMIT 51`, [app.id]],
  ["dead_lettered", `SELECT id FROM delivery WHERE application_id = $1 AND status = 'failed' ORDER BY id DESC LIMIT 51`, [app.id]],
  ["endpoint (no status)", `SELECT id FROM delivery WHERE application_id = $1 AND endpoint_id = $2 ORDER BY id DESC LIMIT 51`, [app.id, endpoints[3]]],
  ["event type + dead_lettered", `SELECT id FROM delivery WHERE application_id = $1 AND status = 'failed' AND event_type = 'order.paid' ORDER BY id DESC LIMIT 51`, [app.id]],
  ["deep page", `SELECT id FROM delivery WHERE application_id = $1 AND status = 'succeeded' AND id < $2 ORDER BY id DESC LIMIT 51`, [app.id, deepCursor]],
  // As lib/portal/search-payloads.ts issues it (7 days of ids, the newest 101).
  ...(["%\"" + recentOrder + "\"%", "%EUR%"] as const).map(
    (pattern): [string, string, unknown[]] => [
      `payload ILIKE ${pattern}`,
      `SELECT id FROM message WHERE application_id = $1 AND id > $2 AND payload::text ILIKE $3 ORDER BY id DESC LIMIT 101`,
      [app.id, idAtTime("message", new Date(now - 7 * 86400_000)), pattern],
    ],
  ),
] as [string, string, unknown[]][]) {
  const { rows } = await pool.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS OFF, COSTS OFF) ${sql}`, params);
  console.log(`  ${name}:`);
  for (const r of rows.slice(0, 6)) console.log(`    ${r["QUERY PLAN"]}`);
}

console.log(`\nportal-logs: ${JSON.stringify({ attempts: big.attempts, deliveries: big.deliveries, messages: big.messages, firstPage: report })}`);
await web.stop();
await pool.end();
process.exit(0);
