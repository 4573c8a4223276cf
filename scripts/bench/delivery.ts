// npm run bench -- delivery — the delivery engine's figures on this machine, with PostgreSQL,
// Redis, the web server, the worker and the receiver all local:
//   1. raw undici loopback POST rate (keep-alive, 10 in flight: the per-endpoint cap; the median of
//      three rounds after a warm-up round);
//   1b. the queue's floor: one BullMQ worker (in this process) whose jobs do nothing but that
//      POST: no database, no signing. What any design with one queue job per delivery can reach
//      here, beside (1) in the same run;
//   2. Herald's sustained deliveries/s to one fast endpoint (a backlog drained by one worker), and
//      the ratio to (1);
//   3. publish-to-receive latency p50/p99 at a fixed 200 messages/s through the API (after an
//      unmeasured warm-up phase at the same rate);
//   4. healthy endpoints' p99 at 200 messages/s, without and with one endpoint that never answers
//      (receiving 20/s, then 100/s), and the ratio to the p99 without; and, as a control, the same
//      extra messages sent to one more endpoint that answers at once: what the extra load costs
//      by itself, so the stuck endpoint's own cost is the difference between the two. Each
//      condition is measured in blocks interleaved with blocks of the healthy endpoints alone
//      (`interleaved`): first the controls, before the stuck endpoint receives anything, then the
//      stuck endpoint. Ratios are to the first sequence's p99 alone; beside them, an A/A figure
//      (the blocks alone, one half of them against the other: how far two measurements of the
//      same thing differ here) and the second sequence's p99 alone (beside the stuck endpoint's
//      backlog, receiving nothing new);
//   5. CPU milliseconds per delivery (the worker's, during the drain and the latency phases) and per
//      publish (the web process's, during the latency phases), and PostgreSQL's and Redis's per
//      message in the latency phases, from /proc: robust on a loaded machine, where the wall-clock
//      figures are not;
//   6. the work each latency condition asks of the stores per second (Redis commands, PostgreSQL
//      write transactions and WAL bytes), and what one more message adds: to the stuck endpoint,
//      and to the control's healthy one. Counts are less sensitive to the machine's speed and
//      stalls than any latency (though not independent of load: batching grows with it).
// A benchmark, not a test: it prints figures and never fails on them. `npm run bench` runs it
// three times and prints each figure's median beside the runs.
import { Queue, Worker } from "bullmq";
import { Agent, request } from "undici";
import {
  cpuMs,
  cpuMsOfAll,
  freePort,
  reportFigures,
  settled,
  startWeb,
  startWorker,
  summarize,
  type Proc,
} from "./harness";
import { rawPostRate, RAW_BODY, startReceiverProcess, type Group } from "./lib/receiver";

const TARGETS = { drainRatio: 0.25, p99At200: 100, stuckP99Ratio: 1.2 };
/** The drain's backlog; BENCH_BACKLOG=2000 makes a quicker run when only the latency phases matter. */
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 20_000);
/** Jobs of the queue's floor (1b). */
const FLOOR_N = 20_000;
const RATE = 200;
/** Seconds of one block of the interleaved latency measurement (each condition gets ROUNDS of them). */
const BLOCK_S = 10;
const ROUNDS = 4;
/** A block's first seconds are not counted: the previous block's extra load is still being worked off. */
const BLOCK_SETTLE_S = 1;
const WARMUP_S = 3;
/** The unmeasured warm-up phase before the measured ones. */
const WARMUP_PHASE_S = 40;
const HEALTHY_ENDPOINTS = 10;
const STUCK_RATES = [20, 100];
/** BENCH_DRAIN_ONLY=1: only the raw rate and the drain (quick A/B of the per-delivery cost). */
const DRAIN_ONLY = process.env.BENCH_DRAIN_ONLY === "1";
/** BENCH_TIMELINE=1: each latency phase second by second (printTimeline). */
const TIMELINE = process.env.BENCH_TIMELINE === "1";

// ---------- helpers ----------

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const agent = new Agent({ keepAliveTimeout: 30_000, connections: 64 });

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await request(url, {
    method: "POST",
    dispatcher: agent,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function stats(rx: string): Promise<Record<string, Group>> {
  return (await (await fetch(`${rx}/stats`)).json()) as Record<string, Group>;
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

/**
 * Work the stores did: counters as read (workNow), or their growth over a time (per block, per
 * second, per message: the name of the variable says which).
 */
type Work = { redisCommands: number; pgWriteTransactions: number; walBytes: number };
const WORK_KEYS = ["redisCommands", "pgWriteTransactions", "walBytes"] as const;
/** A Work whose every figure is `f` of its name. */
const mapWork = (f: (k: keyof Work) => number) => Object.fromEntries(WORK_KEYS.map((k) => [k, f(k)])) as Work;
type CpuSample = { t: number; web: number; worker: number; postgres: number; redis: number };
/** A message published during a latency measurement: when, in which block, and when the API answered 202. */
type Message = { t0: number; block: number; healthy: boolean; counted: boolean; answeredAt: number };

/**
 * BENCH_TIMELINE=1: one line per second of a phase (by when each message was published): its
 * messages' publish-to-receive p50/p99/max, the publish call's p99/max, and the CPU milliseconds
 * each process spent in that second. A phase's p99 is decided by a few such seconds, so this
 * shows which process stalled in them.
 */
function printTimeline(
  start: number,
  messages: [string, Message][],
  arrivals: Record<string, number>,
  cpu: CpuSample[],
  labelAt: (t: number) => string,
) {
  const bySecond = new Map<number, { e2e: number[]; api: number[] }>();
  for (const [id, m] of messages) {
    const sec = Math.floor((m.t0 - start) / 1000);
    const b = bySecond.get(sec) ?? { e2e: [], api: [] };
    if (m.healthy && arrivals[id] !== undefined) b.e2e.push(arrivals[id] - m.t0);
    b.api.push(m.answeredAt - m.t0);
    bySecond.set(sec, b);
  }
  for (const [sec, b] of [...bySecond].sort((x, y) => x[0] - y[0])) {
    const e2e = summarize(b.e2e);
    const api = summarize(b.api);
    const c0 = cpu.findLast((c) => c.t <= start + sec * 1000 + 200);
    const c1 = cpu.find((c) => c.t >= start + (sec + 1) * 1000 - 200);
    const used =
      c0 && c1
        ? ` | CPU ms web ${c1.web - c0.web}, worker ${c1.worker - c0.worker}, PostgreSQL ${c1.postgres - c0.postgres}, Redis ${c1.redis - c0.redis} in ${c1.t - c0.t} ms`
        : "";
    console.log(
      `    ${new Date(start + sec * 1000).toISOString().slice(11, 19)} +${sec}s ${labelAt(start + sec * 1000)}: ${e2e.n} received, p50 ${e2e.p50} p99 ${e2e.p99} max ${e2e.max} ms; publish call p99 ${api.p99} max ${api.max} ms${used}`,
    );
  }
}

// ---------- the benchmark ----------

async function main() {
  const rxPort = await freePort();
  const receiverProc = await startReceiverProcess(rxPort);
  const rx = `http://127.0.0.1:${rxPort}`;
  const procs: Proc[] = [];
  try {
    // 1. Raw undici POST rate.
    const { rate: rawRate, rounds: rawRounds } = await rawPostRate(`${rx}/raw`);
    console.log(
      `raw undici loopback POST rate (10 in flight): ${fmt(rawRate)} req/s (median of ${rawRounds.map((r) => fmt(r)).join(", ")})`,
    );
    const floor = await queueFloor(`${rx}/floor`, RAW_BODY);
    console.log(
      `queue floor (BullMQ jobs doing only that POST, one worker): ${fmt(floor.rate)} /s, ratio to raw ${fmt(floor.rate / rawRate, 2)}; CPU ms per job: this process ${fmt(floor.processMs, 3)}, Redis ${fmt(floor.redisMs, 3)}`,
    );

    // Herald: web + a tenant.
    const web = await startWeb({ HERALD_WORKER_METRICS_PORT: "0" });
    procs.push(web);
    const { createEnvironment } = await import("../../lib/environments/ensure-environment");
    const { createApiKey } = await import("../../lib/environments/api-keys");
    const { db } = await import("../../lib/db");
    const { newId } = await import("../../lib/ids");
    const { enqueueDeliveries } = await import("../../lib/delivery/enqueue-deliveries");
    const env = await createEnvironment("bench");
    const { key } = await createApiKey(env.id, "bench");
    const auth = { authorization: `Bearer ${key}` };
    const api = (path: string, body: unknown) => post(`${web.baseUrl}/api/v1${path}`, body, auth);
    await api("/event-type", { name: "order.paid", description: "bench" });
    const makeApp = async (url: string) => {
      const app = await api("/app", { name: "bench" });
      const ep = await api(`/app/${String(app.body.id)}/endpoint`, { url });
      return { appId: String(app.body.id), endpointId: String(ep.body.id) };
    };

    // 2. Sustained deliveries/s: a backlog drained by one worker. The rows are written first and
    // the worker has finished starting before the jobs are queued, so its CPU counts the drain only.
    const one = await makeApp(`${rx}/drain`);
    const backlog: string[] = [];
    for (let off = 0; off < BACKLOG; off += 2_000) {
      const n = Math.min(2_000, BACKLOG - off);
      const msgs = Array.from({ length: n }, (_, i) => ({
        id: newId("message"),
        environmentId: env.id,
        applicationId: one.appId,
        eventType: "order.paid",
        payload: { orderId: `o_${off + i}`, amount: 4200, pad: "x".repeat(200) },
        channels: [],
      }));
      const dls = msgs.map((m) => ({
        id: newId("delivery"),
        environmentId: env.id,
        applicationId: one.appId,
        endpointId: one.endpointId,
        messageId: m.id,
        eventType: "order.paid",
        status: "pending" as const,
        nextAttemptAt: new Date(),
      }));
      await db.message.createMany({ data: msgs });
      await db.delivery.createMany({ data: dls });
      backlog.push(...dls.map((d) => d.id));
    }
    const worker = startWorker({ HERALD_WORKER_METRICS_PORT: "0" });
    procs.push(worker);
    await sleep(2_000);
    await settled(worker.child.pid);
    const cpuBeforeDrain = cpuMs(worker.child.pid);
    // The stores' share of the drain: from here, so Redis's includes adding the 20,000 jobs (the
    // enqueue is part of a delivery's cost) while PostgreSQL's leaves out writing the rows above.
    const storesBeforeDrain = { postgres: cpuMsOfAll("postgres"), redis: cpuMsOfAll("redis-server") };
    for (let off = 0; off < backlog.length; off += 2_000)
      await enqueueDeliveries(backlog.slice(off, off + 2_000).map((id) => ({ id, endpointId: one.endpointId })));
    const drainDeadline = Date.now() + 300_000;
    let drained = await stats(rx);
    while ((drained["/drain"]?.count ?? 0) < BACKLOG && Date.now() < drainDeadline) {
      await sleep(500);
      drained = await stats(rx);
    }
    const d = drained["/drain"];
    await sleep(1_000); // the last attempts' records
    const drainCpuMs = (cpuMs(worker.child.pid) - cpuBeforeDrain) / (d?.count || NaN);
    const drainStoresMs = {
      postgres: (cpuMsOfAll("postgres") - storesBeforeDrain.postgres) / (d?.count || NaN),
      redis: (cpuMsOfAll("redis-server") - storesBeforeDrain.redis) / (d?.count || NaN),
    };
    const drainRate = d && d.count > 1 ? (d.count - 1) / ((d.last - d.first) / 1000) : NaN;
    console.log(
      `Herald sustained deliveries/s to one fast endpoint: ${fmt(drainRate)} /s (${d?.count ?? 0}/${BACKLOG} in ${fmt(((d?.last ?? 0) - (d?.first ?? 0)) / 1000, 1)} s; worker CPU ${fmt(drainCpuMs, 2)} ms per delivery, PostgreSQL ${fmt(drainStoresMs.postgres, 2)}, Redis ${fmt(drainStoresMs.redis, 2)}) — ratio to raw undici: ${fmt(drainRate / rawRate, 2)}`,
    );
    if (DRAIN_ONLY) {
      reportFigures({
        "raw undici POST req/s": rawRate,
        "one endpoint deliveries/s": drainRate,
        "ratio to raw (target >= 0.25)": drainRate / rawRate,
        "queue floor ratio to raw": floor.rate / rawRate,
        "worker CPU ms per delivery (drain)": drainCpuMs,
        "PostgreSQL CPU ms per delivery (drain)": drainStoresMs.postgres,
        "Redis CPU ms per delivery (drain)": drainStoresMs.redis,
      });
      await db.environment.delete({ where: { id: env.id } });
      await db.$disconnect();
      return;
    }

    // 3 and 4. Latency at a fixed rate through the API.
    const healthy: { appId: string }[] = [];
    for (let i = 0; i < HEALTHY_ENDPOINTS; i++) healthy.push(await makeApp(`${rx}/fast/${i}`));
    const stuck = await makeApp(`${rx}/stuck`);
    const extra = await makeApp(`${rx}/extra`); // healthy, but not among the measured ones

    /** What is published beside the healthy endpoints' RATE during a block: nothing, or `rate`/s to `app`. */
    type Condition = { label: string; rate: number; app: { appId: string } | null };
    type Measured = ReturnType<typeof summarize> & {
      publish: ReturnType<typeof summarize>;
      engine: ReturnType<typeof summarize>;
      cpu: { perPublish: number; perDelivery: number; postgres: number; redis: number };
      /** Work per second of the condition's blocks. */
      workPerSecond: Work;
      /** p99 of the condition's blocks in the first and in the second half of the rounds. */
      halves: [number, number];
    };

    // What the stores were asked to do, for the work per second of each condition. Every counter
    // here moves the moment the work is done (pg_stat_database's would not: a pooled connection
    // that goes idle reports its counts up to 10 s later, into another block). All are the whole
    // server's, so run on a quiet machine:
    // - Redis: commands processed, those run inside Lua scripts included (BullMQ's and the gate's);
    // - PostgreSQL: transaction ids assigned (one per transaction that writes; reads take none),
    //   and bytes of WAL written.
    const { createRedis } = await import("../../lib/queue/connection");
    const counters = createRedis("client");
    const workNow = async (): Promise<Work> => {
      try {
        const info = await counters.info("stats");
        const [pg] = await db.$queryRaw<{ xmax: string; wal: string }[]>`
          SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax,
                 pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS wal`;
        return {
          redisCommands: Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? NaN),
          pgWriteTransactions: Number(pg?.xmax ?? NaN),
          walBytes: Number(pg?.wal ?? NaN),
        };
      } catch {
        // A store that blips between two reads leaves this block's work unknown, not the run failed.
        return mapWork(() => NaN);
      }
    };

    const cpuNow = (): CpuSample => ({
      t: Date.now(),
      web: cpuMs(web.child.pid),
      worker: cpuMs(worker.child.pid),
      postgres: cpuMsOfAll("postgres"),
      redis: cpuMsOfAll("redis-server"),
    });

    /**
     * Publishes RATE messages/s to the healthy endpoints without a break for `rounds` rounds of
     * one `blockS` block per condition, the order reversed every other round (A B C, C B A, A B
     * C, ...): the machine's drift and its occasional stalls (a phase's p99 is decided by a few
     * seconds, BENCH_TIMELINE shows them) then fall on every condition alike. Each condition's
     * latencies pool its blocks. Not counted: messages published in the sequence's first
     * WARMUP_S seconds, or in a block's first BLOCK_SETTLE_S (the previous block's load is
     * still being worked off). CPU and the stores' work (workNow) count whole blocks: CPU per
     * message published in them, work per second.
     */
    async function interleaved(conditions: Condition[], rounds: number, blockS = BLOCK_S): Promise<Measured[]> {
      await fetch(`${rx}/reset`, { method: "POST" });
      const order = Array.from({ length: rounds }, (_, r) => {
        const forward = conditions.map((_, i) => i);
        return r % 2 === 0 ? forward : forward.reverse();
      }).flat();
      const messages = new Map<string, Message>();
      const per = conditions.map(() => ({ published: 0, healthyAccepted: 0, failures: 0 }));
      const cpuUsed = conditions.map(() => ({ web: 0, worker: 0, postgres: 0, redis: 0 }));
      const workDone = conditions.map(() => mapWork(() => 0));
      const timeline: CpuSample[] = [];
      const inflight: Promise<unknown>[] = [];
      const start = Date.now();
      const blockMs = blockS * 1000;
      const end = start + order.length * blockMs;
      let block = 0;
      let inBlock = 0; // healthy messages published in this block
      let sideSent = 0;
      let n = 0;
      let mark = cpuNow();
      let workMark = await workNow();
      const perMs = RATE / 1000;
      const send = (appId: string, healthy: boolean) => {
        const t0 = Date.now();
        const sentIn = block;
        const condition = per[order[sentIn]!]!;
        const counted = t0 - start >= WARMUP_S * 1000 && t0 - (start + sentIn * blockMs) >= BLOCK_SETTLE_S * 1000;
        condition.published++;
        return api(`/app/${appId}/msg`, {
          eventType: "order.paid",
          payload: { sentAt: t0, warm: counted, pad: "x".repeat(200) },
        }).then(
          (r) => {
            if (r.status !== 202) return void condition.failures++;
            if (healthy) condition.healthyAccepted++;
            messages.set(String(r.body.id), { t0, block: sentIn, healthy, counted, answeredAt: Date.now() });
          },
          () => void condition.failures++,
        );
      };
      const closeBlock = (now: CpuSample, work: Work) => {
        const used = cpuUsed[order[block]!]!;
        used.web += now.web - mark.web;
        used.worker += now.worker - mark.worker;
        used.postgres += now.postgres - mark.postgres;
        used.redis += now.redis - mark.redis;
        mark = now;
        const done = workDone[order[block]!]!;
        workDone[order[block]!] = mapWork((k) => done[k] + work[k] - workMark[k]);
        workMark = work;
      };
      const timer = TIMELINE ? setInterval(() => timeline.push(cpuNow()), 1000) : undefined;
      if (TIMELINE) timeline.push(mark);
      for (let now = Date.now(); now < end; now = Date.now()) {
        if (now - start >= (block + 1) * blockMs) {
          closeBlock(cpuNow(), await workNow());
          block++;
          inBlock = 0;
          sideSent = 0;
        }
        const side = conditions[order[block]!]!;
        const due = Math.floor((now - start) * perMs);
        while (n < due) {
          inflight.push(send(healthy[n % healthy.length]!.appId, true));
          n++;
          inBlock++;
          // The side endpoint's messages are spread over the healthy ones' (side.rate per second).
          while (side.app && sideSent < Math.floor((inBlock * side.rate) / RATE)) {
            sideSent++;
            inflight.push(send(side.app.appId, false));
          }
        }
        await sleep(2);
      }
      closeBlock(cpuNow(), await workNow());
      clearInterval(timer);
      await Promise.all(inflight);
      await sleep(3_000); // let the last ones arrive
      const arrivals = (await stats(rx)).fast?.arrivals ?? {};
      const counted = [...messages].filter(([, m]) => m.counted);
      if (TIMELINE) {
        const blockOf = (t: number) =>
          conditions[order[Math.min(order.length - 1, Math.floor((t - start) / blockMs))]!]!.label;
        printTimeline(start, counted, arrivals, timeline, blockOf);
      }
      const latencies = (ms: [string, Message][]) =>
        ms.flatMap(([id, m]) => (m.healthy && arrivals[id] !== undefined ? [arrivals[id] - m.t0] : []));
      return conditions.map((c, i) => {
        const mine = counted.filter(([, m]) => order[m.block] === i);
        const s = summarize(latencies(mine));
        const publish = summarize(mine.map(([, m]) => m.answeredAt - m.t0));
        // The delivery engine's own part: from the API's 202 (message committed and queued) to arrival.
        const engine = summarize(
          mine.flatMap(([id, m]) =>
            m.healthy && arrivals[id] !== undefined ? [Math.max(0, arrivals[id] - m.answeredAt)] : [],
          ),
        );
        const blocks = order.flatMap((o, k) => (o === i ? [k] : []));
        const blockP99 = blocks.map((k) => summarize(latencies(mine.filter(([, m]) => m.block === k))).p99);
        const half = Math.ceil(blocks.length / 2);
        const halves: [number, number] = [
          summarize(latencies(mine.filter(([, m]) => blocks.indexOf(m.block) < half))).p99,
          summarize(latencies(mine.filter(([, m]) => blocks.indexOf(m.block) >= half))).p99,
        ];
        const used = cpuUsed[i]!;
        const { published, healthyAccepted, failures } = per[i]!;
        const seconds = blocks.length * blockS;
        const workPerSecond = mapWork((k) => workDone[i]![k] / seconds);
        const cpu = {
          perPublish: used.web / (published || NaN),
          perDelivery: used.worker / (healthyAccepted || NaN),
          // The stores' share, per message published (each message is one delivery here).
          postgres: used.postgres / (published || NaN),
          redis: used.redis / (published || NaN),
        };
        console.log(
          `${c.label}: ${blocks.length} blocks of ${blockS} s, ${published} messages published (${healthyAccepted} to the healthy endpoints), publish errors ${failures}; ${s.n} healthy deliveries counted\n` +
            `  publish-to-receive p50 ${fmt(s.p50)} ms, p90 ${fmt(s.p90)} ms, p99 ${fmt(s.p99)} ms, max ${fmt(s.max)} ms` +
            ` (of which the publish API call itself: p50 ${fmt(publish.p50)} ms, p99 ${fmt(publish.p99)} ms)\n` +
            `  p99 of each block: ${blockP99.map((p) => fmt(p)).join(", ")} ms\n` +
            `  from the API's 202 to arrival (the delivery engine's part): p50 ${fmt(engine.p50)} ms, p99 ${fmt(engine.p99)} ms\n` +
            `  CPU: web ${fmt(cpu.perPublish, 2)} ms per publish, worker ${fmt(cpu.perDelivery, 2)} ms per healthy delivery;` +
            ` PostgreSQL ${fmt(cpu.postgres, 2)} ms and Redis ${fmt(cpu.redis, 2)} ms per message\n` +
            `  work per second: ${fmt(workPerSecond.redisCommands)} Redis commands, ${fmt(workPerSecond.pgWriteTransactions)} PostgreSQL write transactions, ${fmt(workPerSecond.walBytes / 1024)} KiB of WAL`,
        );
        return { ...s, publish, engine, cpu, workPerSecond, halves };
      });
    }

    // The drain left 20,000 updated rows: vacuum them now (and write the dirty pages out), or
    // autovacuum and the checkpoint do it during whichever phase comes next.
    for (const table of ["delivery", "attempt", "message"]) await db.$executeRawUnsafe(`VACUUM (ANALYZE) ${table}`);
    await db.$executeRawUnsafe("CHECKPOINT").catch(() => undefined); // superusers only
    const alone: Condition = { label: "healthy endpoints only", rate: 0, app: null };
    // Unmeasured warm-up at the same rate: JIT (the web process's CPU per publish still fell by a
    // third over the phases after a 20 s warm-up), connection pools, so the phases compare alike.
    console.log("warm-up (not counted):");
    await interleaved([alone], 1, WARMUP_PHASE_S);
    // The controls first, before the stuck endpoint has received anything: its backlog and hung
    // requests outlive its blocks.
    console.log("\ncontrols, interleaved with healthy endpoints alone:");
    const [base, ...controls] = (await interleaved(
      [
        alone,
        ...STUCK_RATES.map((rate) => ({
          label: `control: + ${rate}/s to one more healthy endpoint`,
          rate,
          app: extra,
        })),
      ],
      ROUNDS,
    )) as [Measured, ...Measured[]];
    console.log("\nthe endpoint that never answers, interleaved with healthy endpoints alone:");
    const [again, ...besideStuck] = (await interleaved(
      [
        { ...alone, label: "healthy endpoints only (the stuck endpoint receives nothing new)" },
        ...STUCK_RATES.map((rate) => ({ label: `+ ${rate}/s to the endpoint that never answers`, rate, app: stuck })),
      ],
      ROUNDS,
    )) as [Measured, ...Measured[]];
    // The work one more message costs, to the stuck endpoint and to the control's healthy one:
    // each side condition's work per second over its own sequence's blocks alone, per side message.
    const extraPerMessage = (side: Measured, aloneThen: Measured, rate: number) =>
      mapWork((k) => (side.workPerSecond[k] - aloneThen.workPerSecond[k]) / rate);
    const stuckRuns = STUCK_RATES.map((rate, i) => ({
      rate,
      ...besideStuck[i]!,
      control: controls[i]!,
      extraWork: {
        stuck: extraPerMessage(besideStuck[i]!, again, rate),
        control: extraPerMessage(controls[i]!, base, rate),
      },
    }));
    // The target's "alone" is the healthy endpoints before the stuck endpoint received anything:
    // the controls' sequence. The second sequence's blocks alone are beside the stuck endpoint's
    // backlog and hung requests (they outlive a block: requests time out after 15 s), so a ratio
    // to them leaves out what the stuck endpoint costs standing still; it is printed beside.
    // How far two measurements of the same thing differ here: the controls' sequence's blocks
    // alone, first half of the rounds against the second (larger over smaller).
    const aa = Math.max(...base.halves) / Math.min(...base.halves);

    console.log("\nsummary");
    console.log(`  raw undici POST rate            ${fmt(rawRate)} req/s`);
    console.log(
      `  Herald deliveries/s (one ep)    ${fmt(drainRate)} /s   ratio ${fmt(drainRate / rawRate, 2)}   target ratio >= ${TARGETS.drainRatio}`,
    );
    console.log(
      `  latency at ${RATE}/s p50 / p99     ${fmt(base.p50)} / ${fmt(base.p99)} ms   target p99 < ${TARGETS.p99At200} ms`,
    );
    console.log(
      `  healthy p99 alone                ${fmt(base.p99)} ms (halves ${base.halves.map((h) => fmt(h)).join(" and ")} ms: A/A x${fmt(aa, 2)});` +
        ` ${fmt(again.p99)} ms beside the stuck endpoint's backlog (x${fmt(again.p99 / base.p99, 2)})`,
    );
    for (const r of stuckRuns)
      console.log(
        `  healthy p99, stuck at ${String(r.rate).padStart(3)}/s   ${fmt(r.p99)} ms (x${fmt(r.p99 / base.p99, 2)} of ${fmt(base.p99)} ms)   target <= x${TARGETS.stuckP99Ratio}` +
          `   (x${fmt(r.p99 / again.p99, 2)} of the blocks alone between them; control, the same load to a healthy endpoint: ${fmt(r.control.p99)} ms, x${fmt(r.control.p99 / base.p99, 2)})`,
      );
    // What the stuck endpoint costs standing still (its backlog, hung requests, retries and
    // probes): the second sequence's blocks alone over the first's, per second.
    const standing = mapWork((k) => again.workPerSecond[k] - base.workPerSecond[k]);
    const showWork = (w: Work) =>
      `${fmt(w.redisCommands, 1)} Redis commands, ${fmt(w.pgWriteTransactions, 2)} write transactions, ${fmt(w.walBytes / 1024, 1)} KiB of WAL`;
    for (const r of stuckRuns)
      console.log(
        `  work per message at ${String(r.rate).padStart(3)}/s      stuck endpoint: ${showWork(r.extraWork.stuck)}; control: ${showWork(r.extraWork.control)}`,
      );
    console.log(`  the stuck endpoint standing still, per second: ${showWork(standing)}`);
    console.log(
      `  CPU per delivery (drain)        ${fmt(drainCpuMs, 3)} ms (worker)   per publish ${fmt(base.cpu.perPublish, 3)} ms (web)`,
    );
    const figures: Record<string, number> = {
      "raw undici POST req/s": rawRate,
      "one endpoint deliveries/s": drainRate,
      "ratio to raw (target >= 0.25)": drainRate / rawRate,
      "queue floor ratio to raw": floor.rate / rawRate,
      "p50 at 200/s ms": base.p50,
      "p99 at 200/s ms (target < 100)": base.p99,
      "A/A: healthy p99 alone, one half of its blocks over the other": aa,
      "healthy p99 alone beside the stuck endpoint's backlog, ratio": again.p99 / base.p99,
    };
    for (const r of stuckRuns) {
      figures[`healthy p99, stuck ${r.rate}/s ms`] = r.p99;
      figures[`  ratio to alone, stuck ${r.rate}/s (target <= 1.2)`] = r.p99 / base.p99;
      figures[`  ratio to the blocks alone between them, stuck ${r.rate}/s`] = r.p99 / again.p99;
      figures[`  control: ratio with ${r.rate}/s more to a healthy endpoint`] = r.control.p99 / base.p99;
    }
    // The work figures after the latency ones, as their own group.
    for (const r of stuckRuns) {
      const { stuck: s, control: c } = r.extraWork;
      figures[`Redis commands per message, stuck ${r.rate}/s`] = s.redisCommands;
      figures[`  control ${r.rate}/s (Redis commands)`] = c.redisCommands;
      figures[`PostgreSQL write transactions per message, stuck ${r.rate}/s`] = s.pgWriteTransactions;
      figures[`  control ${r.rate}/s (write transactions)`] = c.pgWriteTransactions;
      figures[`KiB of WAL per message, stuck ${r.rate}/s`] = s.walBytes / 1024;
      figures[`  control ${r.rate}/s (KiB of WAL)`] = c.walBytes / 1024;
    }
    figures["Redis commands per second, alone"] = base.workPerSecond.redisCommands;
    figures["  more beside the stuck endpoint standing still (Redis commands/s)"] = standing.redisCommands;
    figures["PostgreSQL write transactions per second, alone"] = base.workPerSecond.pgWriteTransactions;
    figures["  more beside the stuck endpoint standing still (write transactions/s)"] = standing.pgWriteTransactions;
    figures["worker CPU ms per delivery (drain)"] = drainCpuMs;
    figures["PostgreSQL CPU ms per delivery (drain)"] = drainStoresMs.postgres;
    figures["Redis CPU ms per delivery (drain)"] = drainStoresMs.redis;
    figures["worker CPU ms per delivery (200/s)"] = base.cpu.perDelivery;
    figures["web CPU ms per publish (200/s)"] = base.cpu.perPublish;
    figures["PostgreSQL CPU ms per message (200/s)"] = base.cpu.postgres;
    figures["Redis CPU ms per message (200/s)"] = base.cpu.redis;
    reportFigures(figures);
    // Runs share the database: the next one starts from the same state, not behind this one's
    // stuck endpoint (thousands of its deliveries parked and pending) and 50,000 delivered rows.
    await db.environment.delete({ where: { id: env.id } });
    await db.$disconnect();
    counters.disconnect();
  } finally {
    for (const p of procs.reverse()) await p.stop();
    receiverProc.kill("SIGTERM");
    await agent.close();
  }
}

/**
 * The floor under any engine that gives each delivery a BullMQ job: FLOOR_N jobs, queued first,
 * drained by one Worker (the engine's concurrency) whose processor only POSTs like the raw
 * reference. Rate from the first job's start to the last one's end; CPU of this process (the
 * worker's share plus its HTTP client) and of Redis per job.
 */
async function queueFloor(url: string, body: string) {
  const { createRedis, queuePrefix } = await import("../../lib/queue/connection");
  const { env } = await import("../../lib/env");
  const name = `bench-floor-${process.pid}`;
  const connection = createRedis("worker");
  const q = new Queue(name, { prefix: queuePrefix(), connection });
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 10 });
  for (let off = 0; off < FLOOR_N; off += 1_000)
    await q.addBulk(
      Array.from({ length: 1_000 }, (_, i) => ({
        name: "deliver",
        data: { deliveryId: `dlv_${off + i}`, trigger: "scheduled" },
        opts: { removeOnComplete: true, removeOnFail: true },
      })),
    );
  let done = 0;
  let first = 0;
  let finished = () => {};
  const all = new Promise<void>((r) => (finished = r));
  const workerConnection = createRedis("worker");
  const cpu0 = process.cpuUsage();
  const redis0 = cpuMsOfAll("redis-server");
  const worker = new Worker(
    name,
    async () => {
      first ||= performance.now();
      try {
        const res = await request(url, {
          method: "POST",
          dispatcher,
          body,
          headers: { "content-type": "application/json" },
        });
        await res.body.dump();
      } finally {
        // A job whose POST failed counts too, so the floor never waits forever.
        if (++done === FLOOR_N) finished();
      }
    },
    { prefix: queuePrefix(), connection: workerConnection, concurrency: env().HERALD_WORKER_CONCURRENCY },
  );
  await all;
  const seconds = (performance.now() - first) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const out = {
    rate: FLOOR_N / seconds,
    processMs: (cpu.user + cpu.system) / 1000 / FLOOR_N,
    redisMs: (cpuMsOfAll("redis-server") - redis0) / FLOOR_N,
  };
  await worker.close();
  await q.obliterate({ force: true });
  await q.close();
  await dispatcher.close();
  connection.disconnect();
  workerConnection.disconnect();
  return out;
}

await main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
