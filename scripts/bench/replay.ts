// npm run bench -- replay: how long a 100,000-message range replay takes on this machine, and
// what it does to everyone else: the publish-to-receive latency of an unrelated application's
// endpoint at a steady rate, measured without the replay and while it runs.
//
// The history (100,000 messages of application A, already delivered) is written straight to the
// database; everything after that goes through the real web server and worker processes.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { db } from "../../lib/db";
import { newId } from "../../lib/ids";
import { createApiKey } from "../../lib/environments/api-keys";
import { createEnvironment } from "../../lib/environments/ensure-environment";
import { queue } from "../../lib/queue/catalog";
import { startWeb, startWorker, summarize } from "./harness";

const MESSAGES = Number(process.env.BENCH_REPLAY_MESSAGES ?? 100_000);
const PROBE_RATE = 20; // unrelated messages per second
const BASELINE_MS = 20_000;
const TIMEOUT_MS = 30 * 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function receiver(onMessage: (id: string, at: number) => void) {
  const server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on("end", () => {
      onMessage(String(req.headers["webhook-id"] ?? ""), performance.now());
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, close: () => server.close() };
}

const env = await createEnvironment("bench-replay");
const { key } = await createApiKey(env.id, "bench");
const web = await startWeb();
const worker = startWorker();
/** The API with the bench key; the fields this script reads are all strings. */
const api = async (method: string, path: string, body?: unknown): Promise<Record<string, string>> => {
  const res = await fetch(`${web.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, string>;
  if (res.status >= 300 && res.status !== 202)
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
};

let replayed = 0;
let replayDoneAt = 0;
const replayRx = await receiver(() => {
  if (++replayed === MESSAGES) replayDoneAt = performance.now();
});
const sentAt = new Map<string, number>();
const latencies: { at: number; ms: number }[] = [];
const probeRx = await receiver((id, at) => {
  const t0 = sentAt.get(id);
  if (t0 !== undefined) latencies.push({ at: t0, ms: at - t0 });
});

try {
  await api("POST", "/event-type", { name: "bench.event", description: "bench" });
  const appA = await api("POST", "/app", { name: "replayed" });
  const appB = await api("POST", "/app", { name: "unrelated" });
  const epA = await api("POST", `/app/${appA.id}/endpoint`, { url: replayRx.url });
  await api("POST", `/app/${appB.id}/endpoint`, { url: probeRx.url });

  // History: MESSAGES delivered messages of application A, an hour ago.
  const t0 = Date.now() - 3_600_000;
  const seedStart = performance.now();
  for (let from = 0; from < MESSAGES; from += 5_000) {
    const n = Math.min(5_000, MESSAGES - from);
    const msgs = Array.from({ length: n }, (_, k) => ({
      id: newId("message", t0 + from + k),
      environmentId: env.id,
      applicationId: appA.id!,
      eventType: "bench.event",
      payload: { seq: from + k, note: "a small payload of the usual size for a webhook event" },
      channels: [],
      createdAt: new Date(t0 + from + k),
    }));
    await db.message.createMany({ data: msgs });
    await db.delivery.createMany({
      data: msgs.map((m) => ({
        id: newId("delivery", m.createdAt.getTime()),
        environmentId: env.id,
        applicationId: appA.id!,
        endpointId: epA.id!,
        messageId: m.id,
        eventType: "bench.event",
        status: "succeeded" as const,
        attemptCount: 1,
        createdAt: m.createdAt,
        updatedAt: m.createdAt,
      })),
    });
  }
  console.log(`seeded ${MESSAGES} messages in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  let probing = true;
  const probe = async (until: () => boolean) => {
    const start = latencies.length;
    while (probing && !until()) {
      const started = performance.now();
      // Latency from the start of the publish request to the receiver seeing the webhook.
      const res = await fetch(`${web.baseUrl}/api/v1/app/${appB.id}/msg`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ eventType: "bench.event", payload: { probe: true } }),
      });
      const out = (await res.json()) as { id: string };
      sentAt.set(out.id, started);
      await sleep(Math.max(0, 1000 / PROBE_RATE - (performance.now() - started)));
    }
    await sleep(2_000); // let the last probes arrive
    return latencies.slice(start);
  };
  // Delivery queue depth (jobs waiting for a consumer), sampled while the replay runs.
  const depth: number[] = [];
  const sampler = setInterval(() => {
    void queue("deliveries")
      .getJobCounts("waiting", "prioritized")
      .then((c) => depth.push((c.waiting ?? 0) + (c.prioritized ?? 0)));
  }, 500);

  await sleep(3_000); // warm up
  const baselineEnd = performance.now() + BASELINE_MS;
  const baseline = await probe(() => performance.now() > baselineEnd);

  const est = await api("POST", `/app/${appA.id}/replay/estimate`, {
    endpoint_id: epA.id,
    since: new Date(t0 - 1000).toISOString(),
  });
  const replayStart = performance.now();
  const started = await api("POST", `/app/${appA.id}/replay`, {
    endpoint_id: epA.id,
    since: new Date(t0 - 1000).toISOString(),
    confirmation: est.confirmation,
  });
  // Probe until every replayed message reached its receiver (the task itself ends earlier: it
  // re-ingests, and the deliveries follow through the normal pipeline).
  const during = await probe(() => replayDoneAt > 0 || performance.now() - replayStart > TIMEOUT_MS);
  probing = false;
  let task: Record<string, string> = {};
  for (let i = 0; i < 600; i++) {
    task = await api("GET", `/tasks/${started.task_id}`);
    if (["completed", "failed", "cancelled"].includes(task.status!)) break;
    await sleep(500);
  }

  clearInterval(sampler);
  const ingestS = (new Date(task.completed_at!).getTime() - new Date(task.created_at!).getTime()) / 1000;
  const deliverS = replayDoneAt ? (replayDoneAt - replayStart) / 1000 : NaN;
  const ingestEnd = replayStart + ingestS * 1000;
  const b = summarize(baseline.map((x) => x.ms));
  const d = summarize(during.map((x) => x.ms));
  const dIngest = summarize(during.filter((x) => x.at <= ingestEnd).map((x) => x.ms));
  const dDrain = summarize(during.filter((x) => x.at > ingestEnd).map((x) => x.ms));
  const fmt = (s: ReturnType<typeof summarize>) =>
    `n=${s.n} p50=${s.p50.toFixed(0)} ms p99=${s.p99.toFixed(0)} ms max=${s.max.toFixed(0)} ms`;
  console.log(
    `replay of ${MESSAGES} messages: task ${task.status} in ${ingestS.toFixed(1)} s (re-ingest), all ${replayed} delivered after ${deliverS.toFixed(1)} s`,
  );
  console.log(
    `  re-ingest rate ${(MESSAGES / ingestS).toFixed(0)} msg/s; end-to-end ${(MESSAGES / deliverS).toFixed(0)} deliveries/s`,
  );
  console.log(`unrelated endpoint, publish-to-receive at ${PROBE_RATE}/s:`);
  console.log(`  without replay: ${fmt(b)}`);
  console.log(`  during replay:  ${fmt(d)}`);
  console.log(`    while re-ingesting:          ${fmt(dIngest)}`);
  console.log(`    while its deliveries drain:  ${fmt(dDrain)}`);
  const dq = summarize(depth);
  console.log(`delivery queue depth during the replay: p50=${dq.p50} p99=${dq.p99} max=${dq.max}`);
} finally {
  replayRx.close();
  probeRx.close();
  await worker.stop();
  await web.stop();
  await db.$disconnect();
}
process.exit(0);
