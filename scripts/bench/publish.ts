// npm run bench -- publish: how many messages per second POST /api/v1/app/{app}/msg accepts into
// an application with 10 endpoints, from concurrent HTTP clients against the built server, with
// the latency of each request (p50/p99). Every accepted message is stored with its 10
// deliveries and queued; the run checks that, then reports.
//
//   BENCH_PUBLISH_CLIENTS    concurrent clients (default 32)
//   BENCH_PUBLISH_SECONDS    measured duration (default 20)
//   BENCH_PUBLISH_IDEMPOTENCY  1 (default): every request carries an idempotency-key, as the SDKs send
// Beside it, in the same run: the raw undici loopback POST rate (lib/receiver.ts), the reference
// that makes a rate comparable between machines and hours, and the CPU milliseconds per accepted
// message of the web process, PostgreSQL, Redis and this process (the clients), from /proc.
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { Agent, request } from "undici";
import { db } from "../../lib/db";
import { createApiKey } from "../../lib/environments/api-keys";
import { createEnvironment } from "../../lib/environments/ensure-environment";
import { cpuMs, cpuMsOfAll, freePort, reportFigures, startWeb, summarize } from "./harness";
import { rawPostRate, startReceiverProcess } from "./lib/receiver";

const CLIENTS = Number(process.env.BENCH_PUBLISH_CLIENTS ?? 32);
const SECONDS = Number(process.env.BENCH_PUBLISH_SECONDS ?? 20);
const WARMUP_SECONDS = 3;
const ENDPOINTS = 10;
const IDEMPOTENCY = (process.env.BENCH_PUBLISH_IDEMPOTENCY ?? "1") !== "0";

// The reference first, alone on the machine; the receiver is gone before Herald starts.
const rxPort = await freePort();
const receiver = await startReceiverProcess(rxPort);
const raw = await rawPostRate(`http://127.0.0.1:${rxPort}/raw`).finally(async () => {
  const exited = once(receiver, "exit");
  receiver.kill("SIGTERM");
  await exited;
});
console.log(
  `raw undici loopback POST rate (10 in flight): ${Math.round(raw.rate)} req/s (median of ${raw.rounds.map(Math.round).join(", ")})`,
);

const env = await createEnvironment("bench-publish");
const { key } = await createApiKey(env.id, "bench");
// No worker: this measures what the API accepts (deliveries stay queued in Redis and PostgreSQL).
const web = await startWeb();

// undici's request, not fetch: the clients share the machine's two cores with Herald, and fetch
// cost them 0.77 ms of CPU per message (WHATWG streams and headers), half of the web process's.
const agent = new Agent({ keepAliveTimeout: 30_000, connections: CLIENTS });

async function api(method: "GET" | "POST", path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await request(`${web.baseUrl}/api/v1${path}`, {
    method,
    dispatcher: agent,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, text };
}

async function setup() {
  const app = await api("POST", "/app", { name: "Bench", uid: "bench" });
  if (app.status !== 201) throw new Error(`create app: ${app.status} ${app.text}`);
  await api("POST", "/event-type", { name: "order.paid", description: "An order was paid" });
  for (let i = 0; i < ENDPOINTS; i++) {
    // A public-looking address: nothing is delivered in this run (no worker).
    const ep = await api("POST", "/app/bench/endpoint", { url: `https://receiver-${i}.example.com/webhook` });
    if (ep.status !== 201) throw new Error(`create endpoint: ${ep.status} ${ep.text}`);
  }
}

const payload = (n: number) => ({
  eventType: "order.paid",
  payload: {
    orderId: `ord_${n}`,
    amount: 4200 + (n % 100),
    currency: "EUR",
    customer: { id: `cus_${n % 997}`, email: "jane@example.com" },
  },
});

let seq = 0;
async function client(until: number, latencies: number[] | null, errors: string[]) {
  while (performance.now() < until) {
    const n = seq++;
    const t0 = performance.now();
    const res = await api(
      "POST",
      "/app/bench/msg",
      payload(n),
      IDEMPOTENCY ? { "idempotency-key": `auto_${randomUUID()}` } : {},
    );
    const ms = performance.now() - t0;
    if (res.status !== 202) errors.push(`${res.status} ${res.text.slice(0, 200)}`);
    else latencies?.push(ms);
  }
}

try {
  await setup();
  const errors: string[] = [];
  const warmupEnd = performance.now() + WARMUP_SECONDS * 1000;
  await Promise.all(Array.from({ length: CLIENTS }, () => client(warmupEnd, null, errors)));
  const before = await db.message.count({ where: { environmentId: env.id } });

  const latencies: number[] = [];
  const cpu0 = {
    web: cpuMs(web.child.pid),
    postgres: cpuMsOfAll("postgres"),
    redis: cpuMsOfAll("redis-server"),
    clients: process.cpuUsage(),
  };
  const start = performance.now();
  const end = start + SECONDS * 1000;
  await Promise.all(Array.from({ length: CLIENTS }, () => client(end, latencies, errors)));
  const elapsed = (performance.now() - start) / 1000;
  const clientsCpu = process.cpuUsage(cpu0.clients);
  const per = (ms: number) => ms / latencies.length;
  const cpu = {
    web: per(cpuMs(web.child.pid) - cpu0.web),
    postgres: per(cpuMsOfAll("postgres") - cpu0.postgres),
    redis: per(cpuMsOfAll("redis-server") - cpu0.redis),
    clients: per((clientsCpu.user + clientsCpu.system) / 1000),
  };

  const messages = (await db.message.count({ where: { environmentId: env.id } })) - before;
  const deliveries = await db.delivery.count({ where: { environmentId: env.id } });
  const totalMessages = before + messages;
  const s = summarize(latencies);
  const rate = latencies.length / elapsed;
  console.log(
    JSON.stringify({
      bench: "publish",
      endpoints: ENDPOINTS,
      clients: CLIENTS,
      seconds: Number(elapsed.toFixed(1)),
      idempotencyKeys: IDEMPOTENCY,
      accepted: latencies.length,
      messagesPerSecond: Math.round(rate),
      deliveriesPerSecond: Math.round(rate * ENDPOINTS),
      latencyMs: {
        p50: Number(s.p50.toFixed(1)),
        p90: Number(s.p90.toFixed(1)),
        p99: Number(s.p99.toFixed(1)),
        max: Number(s.max.toFixed(1)),
      },
      errors: errors.length,
      rawReqPerSecond: Math.round(raw.rate),
      ratioToRaw: Number((rate / raw.rate).toFixed(4)),
      cpuMsPerMessage: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, Number(v.toFixed(2))])),
    }),
  );
  console.log(
    `publish: ${Math.round(rate)} msgs/s accepted (${Math.round(rate * ENDPOINTS)} deliveries/s) into an application with ${ENDPOINTS} endpoints, ` +
      `${CLIENTS} clients, p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, ${errors.length} errors`,
  );
  console.log(
    `  ratio to the raw undici rate ${(rate / raw.rate).toFixed(3)}; CPU ms per message: web ${cpu.web.toFixed(2)}, PostgreSQL ${cpu.postgres.toFixed(2)}, Redis ${cpu.redis.toFixed(2)}, clients ${cpu.clients.toFixed(2)}`,
  );
  if (errors.length > 0) console.log(`first errors: ${errors.slice(0, 3).join(" | ")}`);
  reportFigures({
    "raw undici POST req/s": raw.rate,
    "messages/s accepted (target >= 400)": rate,
    "ratio to raw": rate / raw.rate,
    "p50 ms": s.p50,
    "p99 ms (target < 150)": s.p99,
    "web CPU ms per message": cpu.web,
    "PostgreSQL CPU ms per message": cpu.postgres,
    "Redis CPU ms per message": cpu.redis,
    "clients' CPU ms per message (this process)": cpu.clients,
    errors: errors.length,
  });
  if (messages !== latencies.length) throw new Error(`${latencies.length} accepted but ${messages} stored`);
  if (deliveries !== totalMessages * ENDPOINTS)
    throw new Error(`${totalMessages} messages but ${deliveries} deliveries (want ${ENDPOINTS} each)`);
} finally {
  await web.stop();
  await agent.close();
  // Runs share the database: each starts from an empty tenant.
  await db.environment.delete({ where: { id: env.id } });
  await db.$disconnect();
}
