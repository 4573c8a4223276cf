import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/ids";
import { startStack, type Stack } from "./helpers/stack";
import { startReceiver, type Receiver } from "./helpers/receiver";
import { seedHistory } from "./helpers/seed-history";
import { readSse } from "./helpers/sse";
import { waitForTask, waitForTaskState } from "./helpers/tasks";

// Tasks under faults, on a private stack (own database, Redis prefix, web server and worker) so
// the worker can be killed: SSE progress read over HTTP, cancel mid-run, SIGKILL and SIGTERM of
// the worker mid-task and resume from the cursor, the sweeper starting a task whose job was lost,
// and a task that fails. Small batches with a pause make every task take a few seconds.

const HOUR = 3_600_000;
// Each test waits (bounded) for a task to crawl through thousands of rows at a deliberately slow
// pace, plus worker restarts: more than the default per-test limit, not a performance target.
const SLOW = 180_000;

describe("tasks under faults", () => {
  let s: Stack;
  let rx: Receiver;
  let appId: string;
  let epA: string;
  let epB: string;
  const groups: Record<"sse" | "cancel" | "kill", { ids: string[]; since: string; until: string }> = {} as never;

  beforeAll(async () => {
    s = await startStack({
      workerEnv: {
        HERALD_TASK_BATCH_SIZE: "50",
        HERALD_TASK_BATCH_PAUSE_MS: "100",
        HERALD_TASK_LEASE_MS: "2000",
        HERALD_TASK_SWEEP_MS: "300",
        HERALD_EXPORT_MAX_ROWS: "4000",
        // Deliveries cut off by a SIGKILL hold their endpoint's slots until their lease (connect +
        // request timeout + margin) expires; short timeouts keep the resumed replay from crawling.
        HERALD_CONNECT_TIMEOUT_MS: "1000",
        HERALD_REQUEST_TIMEOUT_MS: "2000",
        LOG_LEVEL: "debug",
      },
      webEnv: { HERALD_REPLAY_CONFIRM_THRESHOLD: "100000", LOG_LEVEL: "debug" },
      captureLogs: true,
    });
    s.startWorker();
    rx = await startReceiver();
    appId = (await s.api("POST", "/app", { name: "Faults" })).body.id;
    expect((await s.api("POST", "/event-type", { name: "job.done", description: "d" })).status).toBe(201);
    epA = (await s.api("POST", `/app/${appId}/endpoint`, { url: rx.url })).body.id;
    epB = (await s.api("POST", `/app/${appId}/endpoint`, { url: rx.url, filterTypes: ["job.done"] })).body.id;
    const base = { environmentId: s.environmentId, applicationId: appId, eventType: "job.done" };
    const seed = async (name: keyof typeof groups, count: number, startAt: Date, endpointId: string) => {
      const r = await seedHistory(s.db, {
        ...base,
        count,
        startAt,
        delivery: { endpointId, status: "succeeded" },
        attempts: { url: rx.url, responseStatus: () => 200 },
      });
      groups[name] = {
        ids: r.messageIds,
        since: startAt.toISOString(),
        until: new Date(startAt.getTime() + count).toISOString(),
      };
    };
    // 5,000 attempts in all: more than HERALD_EXPORT_MAX_ROWS for an app-wide export.
    await seed("sse", 1000, new Date(Date.now() - 5 * HOUR), epA);
    await seed("cancel", 2000, new Date(Date.now() - 4 * HOUR), epB);
    await seed("kill", 2000, new Date(Date.now() - 3 * HOUR), epA);
    // A private stack (its database migrated from scratch: 14-18 s of `prisma migrate deploy`
    // here) plus 5,000 seeded deliveries: 40 s on a quiet machine, more than the default hook
    // limit under the full suite. Not a performance target.
  }, SLOW);
  afterAll(async () => {
    await s?.close();
    await rx?.close();
  });

  const copiesOf = (ids: string[]) =>
    s.db.$queryRaw<{ n: number; distinct: number }[]>`
      SELECT count(*)::int AS n, count(DISTINCT replay_of_id)::int AS distinct FROM message WHERE replay_of_id = ANY(${ids}::text[])`.then(
      (r) => r[0]!,
    );

  it(
    "streams progress over SSE to a plain HTTP client (no headers): monotonic, ending with the final state",
    async () => {
      const g = groups.sse;
      const started = await s.api("POST", `/app/${appId}/replay`, { since: g.since, until: g.until, endpoint_id: epA });
      expect(started.status).toBe(202);
      const stream = await readSse(started.body.events_url, { maxMs: 60_000 });
      expect(stream.status).toBe(200);
      const states = stream.events.map((e) => ({ event: e.event, ...JSON.parse(e.data) }));
      expect(states[0].event).toBe("status");
      const last = states[states.length - 1]!;
      expect(last).toMatchObject({ event: "status", status: "completed", progress: 100, done: 1000, total: 1000 });
      const progress = states.filter((x) => x.event === "progress");
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(progress.some((x) => x.progress > 0 && x.progress < 100)).toBe(true);
      const seen = states.map((x) => x.progress as number);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      const running = states.find((x) => x.status === "running" && x.done > 0);
      expect(running?.estimated_completion).toEqual(expect.any(String));
      expect(await copiesOf(g.ids)).toEqual({ n: 1000, distinct: 1000 });

      // The link's token is a credential of sorts: it must not show up in the server's logs, also
      // when it is refused.
      const token = new URL(started.body.events_url as string).searchParams.get("token")!;
      expect((await fetch(`${s.baseUrl}/api/v1/tasks/${newId("task")}/events?token=${token}`)).status).toBe(401);
      expect(s.logs()).toContain("web server ready"); // the capture works (server.ts logs this at start)
      expect(s.logs()).not.toContain(token);
      expect(s.logs()).not.toContain(s.apiKey);
    },
    SLOW,
  );

  it(
    "cancels a running task within seconds, keeps what was done and says how much",
    async () => {
      const g = groups.cancel;
      const started = await s.api("POST", `/app/${appId}/replay`, { since: g.since, until: g.until, endpoint_id: epB });
      await waitForTaskState(s.api, started.body.task_id, (x) => x.done >= 100);
      const cancel = await s.api("POST", `/tasks/${started.body.task_id}/cancel`);
      expect(cancel.status).toBe(200);
      expect(cancel.body.status).toBe("cancelled");
      const done = cancel.body.done as number;
      expect(done).toBeGreaterThanOrEqual(100);
      expect(done).toBeLessThan(2000);
      expect(cancel.body.summary).toContain(`${done} of 2000 messages`);
      // The replay's deliveries not attempted yet are cancelled, and the result says how many.
      expect(cancel.body.result).toEqual({ messages: done, deliveries: done, cancelled: expect.any(Number) });
      const cancelledDeliveries = cancel.body.result.cancelled as number;
      expect(cancelledDeliveries).toBeGreaterThanOrEqual(0);
      expect(cancelledDeliveries).toBeLessThanOrEqual(done);
      const counts = (await s.api("GET", `/tasks/${started.body.task_id}/deliveries`)).body;
      expect(counts.cancelled).toBeGreaterThanOrEqual(cancelledDeliveries);
      // What was done stays done, and nothing more happens.
      expect(await copiesOf(g.ids)).toEqual({ n: done, distinct: done });
      await new Promise((r) => setTimeout(r, 1500));
      expect(await copiesOf(g.ids)).toEqual({ n: done, distinct: done });
      expect((await s.api("GET", `/tasks/${started.body.task_id}`)).body).toMatchObject({ status: "cancelled", done });
    },
    SLOW,
  );

  it(
    "a worker killed with SIGKILL mid-replay: the task resumes from its cursor, no message replayed twice or skipped",
    async () => {
      const g = groups.kill;
      const started = await s.api("POST", `/app/${appId}/replay`, { since: g.since, until: g.until, endpoint_id: epA });
      const id = started.body.task_id as string;
      await waitForTaskState(s.api, id, (x) => x.done >= 300);
      await s.stopWorker("SIGKILL");
      const frozen = (await s.api("GET", `/tasks/${id}`)).body;
      expect(frozen.status).toBe("running");
      expect(frozen.done).toBeLessThan(2000);

      // While no worker runs: a pending task can be cancelled directly (pending → cancelled).
      const pending = await s.api("POST", `/app/${appId}/attempt/export`, { endpoint_id: epB });
      expect((await s.api("GET", `/tasks/${pending.body.task_id}`)).body.status).toBe("pending");
      const cancelled = await s.api("POST", `/tasks/${pending.body.task_id}/cancel`);
      expect(cancelled.body).toMatchObject({ status: "cancelled", done: 0, started_at: null });
      // And a task whose job never reached the queue (crash right after the insert).
      const orphan = await s.db.task.create({
        data: {
          id: newId("task"),
          environmentId: s.environmentId,
          applicationId: appId,
          endpointId: epB,
          kind: "recover",
          params: { since: new Date(0).toISOString(), until: new Date().toISOString() },
        },
      });

      s.startWorker();
      const task = await waitForTask(s.api, id, undefined, 90_000);
      expect(task).toMatchObject({
        status: "completed",
        done: 2000,
        total: 2000,
        result: { messages: 2000, deliveries: 2000 },
      });
      expect(await copiesOf(g.ids)).toEqual({ n: 2000, distinct: 2000 });
      const row = await s.db.task.findUniqueOrThrow({ where: { id } });
      expect(row.runs).toBe(2);
      const copies = await s.db.message.findMany({ where: { replayOfId: { in: g.ids } }, select: { id: true } });
      expect(await s.db.delivery.count({ where: { messageId: { in: copies.map((c) => c.id) } } })).toBe(2000);

      expect((await waitForTask(s.api, orphan.id)).status).toBe("completed");
      expect((await s.api("GET", `/tasks/${pending.body.task_id}`)).body.status).toBe("cancelled");
    },
    SLOW,
  );

  it(
    "an export survives SIGTERM and SIGKILL mid-run: the file holds every row exactly once",
    async () => {
      // The seeded attempts of endpoint A only (the replays above made real ones too).
      const window = { since: groups.sse.since, until: groups.kill.until };
      const started = await s.api("POST", `/app/${appId}/attempt/export`, {
        ...window,
        endpoint_id: epA,
        format: "csv",
      });
      const id = started.body.task_id as string;
      await waitForTaskState(s.api, id, (x) => x.done >= 200);
      // SIGTERM: the worker stops after its batch, the task stays running with its lease given back.
      await s.stopWorker("SIGTERM");
      const paused = await s.db.task.findUniqueOrThrow({ where: { id } });
      expect(paused.status).toBe("running");
      expect(paused.leaseUntil!.getTime()).toBeLessThanOrEqual(Date.now());
      s.startWorker();
      await waitForTaskState(s.api, id, (x) => x.done >= paused.doneCount + 200, 60_000);
      await s.stopWorker("SIGKILL");
      s.startWorker();
      const task = await waitForTask(s.api, id, undefined, 90_000);
      expect(task).toMatchObject({ status: "completed", done: 3000, total: 3000, result: { rows: 3000 } });
    // Three runs, but the SIGTERM hand-over does not count as one that died.
    expect((await s.db.task.findUniqueOrThrow({ where: { id } })).runs).toBe(2);
      const text = await (await fetch(task.result_url)).text();
      const ids = text
        .trimEnd()
        .split("\r\n")
        .slice(1)
        .map((l) => l.split(",")[0]);
      expect(ids).toHaveLength(3000);
      expect(new Set(ids).size).toBe(3000);
      expect(ids).toEqual([...ids].sort());
    },
    SLOW,
  );

  it("a task that cannot finish fails with an error code and message (export over the row limit)", async () => {
    const started = await s.api("POST", `/app/${appId}/attempt/export`, { format: "ndjson" });
    const task = await waitForTask(s.api, started.body.task_id);
    expect(task.status).toBe("failed");
    expect(task.error.code).toBe("data_too_large");
    expect(task.error.message).toContain("4000");
    expect(task.result_url).toBeUndefined();
  });
});
