// npm run bench -- scale — deliveries/s with one and with two worker processes, on the standalone
// Redis of the run and on a Redis Cluster of three masters (started here on loopback,
// scripts/lib/redis-servers.mjs), three runs of each, median. Each run: a backlog of deliveries
// to many fast endpoints (so the per-endpoint cap is not the limit) is committed and queued while
// no worker runs; then the workers start and the rate is measured at the receiver, first to last
// arrival. On a machine of two cores, a second worker adds little (both compete with PostgreSQL,
// Redis and the receiver); the figure shows what cluster mode costs against one Redis.
// A benchmark, not a test: it prints figures and never fails on them.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { startWorker, type Proc } from "./harness";
import { startRedisCluster } from "../lib/redis-servers.mjs";

const BACKLOG = Number(process.env.BENCH_SCALE_BACKLOG ?? 3_000);
const ENDPOINTS = 40;
const RUNS = 3;
const WORKERS = [1, 2];

type Result = { workers: number; rate: number; seconds: number; count: number };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "n/a");

/** One topology (the environment's Redis): every worker count, RUNS times. Prints JSON results. */
async function measure(): Promise<void> {
  const { createEnvironment } = await import("../../lib/environments/ensure-environment");
  const { createApplication } = await import("../../lib/applications/manage-applications");
  const { createEndpoint } = await import("../../lib/endpoints/manage-endpoints");
  const { EndpointIn } = await import("../../lib/endpoints/schemas");
  const { db } = await import("../../lib/db");
  const { newId } = await import("../../lib/ids");
  const { enqueueDeliveries } = await import("../../lib/delivery/enqueue-deliveries");

  // The receiver: counts arrivals and their first and last time.
  let count = 0;
  let first = 0;
  let last = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const now = Date.now();
      if (count++ === 0) first = now;
      last = now;
      res.writeHead(200).end("ok");
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const rx = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  const env = await createEnvironment("bench-scale");
  const scope = { environmentId: env.id };
  await db.eventType.create({ data: { id: newId("eventType"), environmentId: env.id, name: "order.paid", description: "bench" } }).catch(() => undefined);
  const results: Result[] = [];
  for (const workers of WORKERS)
    for (let run = 0; run < RUNS; run++) {
      const { app } = await createApplication(scope, { name: `scale ${workers}x${run}`, metadata: {} });
      const endpoints: string[] = [];
      for (let i = 0; i < ENDPOINTS; i++)
        endpoints.push((await createEndpoint(scope, app.id, EndpointIn.parse({ url: `${rx}/e/${i}` }))).id);
      for (let off = 0; off < BACKLOG; off += 2_000) {
        const n = Math.min(2_000, BACKLOG - off);
        const msgs = Array.from({ length: n }, (_, i) => ({
          id: newId("message"),
          environmentId: env.id,
          applicationId: app.id,
          eventType: "order.paid",
          payload: { orderId: `o_${off + i}`, amount: 4200, pad: "x".repeat(200) },
          channels: [],
        }));
        const dls = msgs.map((m, i) => ({
          id: newId("delivery"),
          environmentId: env.id,
          applicationId: app.id,
          endpointId: endpoints[(off + i) % ENDPOINTS]!,
          messageId: m.id,
          eventType: "order.paid",
          status: "pending" as const,
          nextAttemptAt: new Date(),
        }));
        await db.message.createMany({ data: msgs });
        await db.delivery.createMany({ data: dls });
        if (!(await enqueueDeliveries(dls.map((d) => ({ id: d.id }))))) throw new Error("enqueue failed");
      }
      count = 0;
      const procs: Proc[] = Array.from({ length: workers }, () => startWorker({ HERALD_WORKER_METRICS_PORT: "0" }));
      const deadline = Date.now() + 300_000;
      while (count < BACKLOG && Date.now() < deadline) await sleep(200);
      await Promise.all(procs.map((p) => p.stop()));
      const seconds = (last - first) / 1000;
      results.push({ workers, count, seconds, rate: count > 1 ? (count - 1) / seconds : NaN });
      console.error(`  ${workers} worker(s), run ${run + 1}: ${fmt(results.at(-1)!.rate)} deliveries/s (${count}/${BACKLOG} in ${seconds.toFixed(1)} s)`);
    }
  server.close();
  await db.$disconnect();
  process.stdout.write(JSON.stringify(results));
}

/** Runs `measure` in a child process whose Redis settings are `redisEnv`. */
function measureIn(redisEnv: Record<string, string>): Promise<Result[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", import.meta.filename, "--measure"], {
      env: { ...process.env, ...redisEnv },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.once("exit", (code) => (code === 0 ? resolve(JSON.parse(out) as Result[]) : reject(new Error(`measure exited with ${code}`))));
  });
}

async function main() {
  const table: { topology: string; workers: number; median: number; runs: number[] }[] = [];
  const summarize = (topology: string, results: Result[]) => {
    for (const w of WORKERS) {
      const runs = results.filter((r) => r.workers === w).map((r) => r.rate);
      table.push({ topology, workers: w, median: median(runs), runs });
    }
  };
  console.log(`backlog ${BACKLOG} deliveries over ${ENDPOINTS} endpoints per run, ${RUNS} runs each`);
  console.log("standalone Redis:");
  summarize("standalone", await measureIn({}));
  const cluster = await startRedisCluster();
  try {
    console.log("Redis Cluster (3 masters):");
    summarize("cluster", await measureIn(cluster.env));
  } finally {
    await cluster.stop();
  }
  console.log("\nsummary (deliveries/s, median of 3)");
  for (const t of table)
    console.log(`  ${t.topology.padEnd(10)} ${t.workers} worker${t.workers > 1 ? "s" : " "}  ${fmt(t.median).padStart(6)}   runs ${t.runs.map(fmt).join(", ")}`);
  const get = (topology: string, w: number) => table.find((t) => t.topology === topology && t.workers === w)!.median;
  console.log(`  two workers vs one: standalone x${(get("standalone", 2) / get("standalone", 1)).toFixed(2)}, cluster x${(get("cluster", 2) / get("cluster", 1)).toFixed(2)}`);
  console.log(`  cluster vs standalone: one worker x${(get("cluster", 1) / get("standalone", 1)).toFixed(2)}, two workers x${(get("cluster", 2) / get("standalone", 2)).toFixed(2)}`);
}

if (process.argv.includes("--measure"))
  await measure().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
else
  await main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
