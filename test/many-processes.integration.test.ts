import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/ids";
import { hashPassword } from "@/lib/accounts/password";
import { SIGN_IN_MAX_FAILURES } from "@/lib/accounts/rate-limit";
import { startStack, type Stack } from "./helpers/stack";
import { startReceiver, type Receiver } from "./helpers/receiver";
import { requestJson } from "./helpers/http";
import { browser, freshAddress, uniqueEmail } from "./helpers/accounts";
import { EVENT_TYPE, makeApp, makeEndpoint, waitUntil } from "./helpers/delivery";
import { seedHistory } from "./helpers/seed-history";
import { readSse } from "./helpers/sse";

// Herald as several processes behind a balancer, without sticky sessions: two web processes of
// one build (web A on the stack's port, web B on another, both with the same public URL, as
// behind a proxy) and two workers, on one database and one Redis. Whatever a client did on one
// web process holds on the other (an idempotency key, a task's progress stream, a portal session,
// a console session, the sign-in failure limit), and with two workers a task runs once and a
// periodic job that must be cluster-wide runs in one of them per period.

const SLOW = 180_000;
/** When the hourly clean-up first runs after a worker starts (worker/deliveries.ts CLEANUP_FIRST_MS). */
const CLEANUP_FIRST_MS = 30_000;

describe("two web processes and two workers", () => {
  let s: Stack;
  let webB: string;
  let rx: Receiver;
  let appId: string;
  let endpointId: string;
  /** By then both workers had set their timers (they log "worker started" after). */
  let bothWorkersAt = 0;

  beforeAll(async () => {
    s = await startStack({
      workerEnv: {
        // Small batches with a pause: a replay of a few hundred messages takes a few seconds, and
        // a short lease with a quick sweeper gives the other worker every chance to take it over.
        HERALD_TASK_BATCH_SIZE: "50",
        HERALD_TASK_BATCH_PAUSE_MS: "100",
        HERALD_TASK_LEASE_MS: "2000",
        HERALD_TASK_SWEEP_MS: "300",
        // The clean-up's "expired data cleaned up" is an info line.
        LOG_LEVEL: "info",
      },
      webEnv: { HERALD_REPLAY_CONFIRM_THRESHOLD: "100000" },
      captureLogs: true,
    });
    s.startWorker();
    s.addWorker();
    [webB, rx] = await Promise.all([s.addWeb(), startReceiver()]);
    const started = () => s.logs().split("\n").filter((l) => l.includes('"msg":"worker started"')).length;
    await waitUntil("both workers to start", () => Promise.resolve(started()), (n) => n === 2, 60_000);
    bothWorkersAt = Date.now();
    appId = await makeApp(s.api);
    endpointId = (await makeEndpoint(s.api, appId, { url: rx.url })).id;
  }, SLOW);
  afterAll(async () => {
    await s?.close();
    await rx?.close();
  }, SLOW);

  const publishOn = (base: string, app: string, payload: unknown, key: string) =>
    requestJson("POST", `${base}/api/v1/app/${app}/msg`, s.apiKey, { eventType: EVENT_TYPE, payload }, { "idempotency-key": key });

  it("an idempotency key used on web A replays the same message on web B, also when both race", async () => {
    const app = await makeApp(s.api);
    const first = await publishOn(s.baseUrl, app, { n: 1 }, "retry-on-b");
    expect(first.status).toBe(202);
    const retry = await publishOn(webB, app, { n: 1 }, "retry-on-b");
    expect(retry.status).toBe(202);
    expect(retry.body.id).toBe(first.body.id);

    // Six copies of one request at once, alternating between the processes: one runs, the others
    // replay its answer or are told it is in progress (409), never a second message.
    const racing = await Promise.all(
      Array.from({ length: 6 }, (_, i) => publishOn(i % 2 ? webB : s.baseUrl, app, { n: 2 }, "raced")),
    );
    const accepted = racing.filter((r) => r.status === 202);
    expect(racing.filter((r) => r.status !== 202 && r.status !== 409).map((r) => `${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
    expect(accepted.length).toBeGreaterThan(0);
    expect(new Set(accepted.map((r) => r.body.id)).size).toBe(1);
    const late = await waitUntil("the raced key to be replayable on B", () => publishOn(webB, app, { n: 2 }, "raced"), (r) => r.status === 202);
    expect(late.body.id).toBe(accepted[0]!.body.id);
    expect(await s.db.message.count({ where: { applicationId: app } })).toBe(2);
  });

  it("a replay started on web A streams its progress from web B, and runs once across two workers", async () => {
    const count = 300;
    const since = new Date(Date.now() - 3_600_000);
    const seeded = await seedHistory(s.db, {
      environmentId: s.environmentId,
      applicationId: appId,
      eventType: EVENT_TYPE,
      count,
      startAt: since,
      delivery: { endpointId, status: "succeeded" },
      attempts: { url: rx.url, responseStatus: () => 200 },
    });
    const started = await s.api("POST", `/app/${appId}/replay`, {
      since: since.toISOString(),
      until: new Date(since.getTime() + count).toISOString(),
      endpoint_id: endpointId,
    });
    expect(started.status).toBe(202);
    // The signed link names the public URL (web A's here); the same path on web B.
    const eventsUrl = new URL(started.body.events_url as string);
    expect(eventsUrl.origin).toBe(s.baseUrl);
    const stream = await readSse(`${webB}${eventsUrl.pathname}${eventsUrl.search}`, { maxMs: 60_000 });
    expect(stream.status).toBe(200);
    const states = stream.events.map((e) => ({ event: e.event, ...(JSON.parse(e.data) as { progress: number; status: string }) }));
    expect(states.filter((x) => x.event === "progress").length).toBeGreaterThanOrEqual(1);
    expect(states[states.length - 1]).toMatchObject({ event: "status", status: "completed", progress: 100, done: count, total: count });
    const seen = states.map((x) => x.progress);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));

    // Once: every seeded message has exactly one copy, although both workers sweep for tasks.
    const [copies] = await s.db.$queryRaw<{ n: number; distinct: number }[]>`
      SELECT count(*)::int AS n, count(DISTINCT replay_of_id)::int AS distinct FROM message
      WHERE replay_of_id = ANY(${seeded.messageIds}::text[])`;
    expect(copies).toEqual({ n: count, distinct: count });
  }, SLOW);

  it("a portal session exchanged on web A works on web B, within its application only", async () => {
    const other = await makeApp(s.api);
    const link = await s.api("POST", `/auth/app-portal-access/${appId}`, {});
    expect(link.status).toBe(200);
    const exchanged = await requestJson("POST", `${s.baseUrl}/api/v1/auth/portal-session`, null, { token: link.body.token });
    expect(exchanged.status).toBe(200);
    const session = exchanged.body.session as string;
    const endpoints = await requestJson("GET", `${webB}/api/v1/app/${appId}/endpoint`, session);
    expect(endpoints.status).toBe(200);
    expect(endpoints.body.data.map((e: { id: string }) => e.id)).toEqual([endpointId]);
    expect((await requestJson("GET", `${webB}/api/v1/app/${other}/endpoint`, session)).status).toBe(404);
  });

  async function member() {
    const email = uniqueEmail("many");
    const password = `pw-${Math.random().toString(36).slice(2)}-long`;
    const user = await s.db.user.create({ data: { id: newId("user"), email, passwordHash: await hashPassword(password) } });
    await s.db.environmentMembership.create({
      data: { id: newId("environmentMembership"), environmentId: s.environmentId, userId: user.id, role: "owner" },
    });
    return { email, password };
  }

  it("a console session signed in on web A is valid on web B", async () => {
    const owner = await member();
    const address = freshAddress();
    const onA = browser(address, s.baseUrl);
    expect((await onA.signIn(owner.email, owner.password)).error).toBeNull();
    const onB = browser(address, webB);
    for (const [k, v] of onA.jar) onB.jar.set(k, v);
    const apps = await onB.api("GET", "/app");
    expect(apps.status).toBe(200);
    expect(apps.body.data.map((a: { id: string }) => a.id)).toContain(appId);
  });

  it("failed sign-ins on web A and web B count against one limit", async () => {
    const owner = await member();
    const address = freshAddress();
    const [onA, onB] = [browser(address, s.baseUrl), browser(address, webB)];
    // Half the failures on each process: a per-process count would stay under the limit on both.
    for (let i = 0; i < SIGN_IN_MAX_FAILURES; i++)
      expect((await (i % 2 ? onB : onA).signIn(owner.email, `wrong-${i}-password`)).error).toBe("Wrong email or password.");
    for (const b of [onA, onB]) expect((await b.signIn(owner.email, owner.password)).error).toMatch(/^Too many failed sign-in attempts/);
  });

  it("the hourly clean-up, due in both workers at the same moment, runs in one of them", async () => {
    const ran = () => s.logs().split("\n").filter((l) => l.includes('"msg":"expired data cleaned up"')).length;
    await waitUntil("the clean-up to run", () => Promise.resolve(ran()), (n) => n >= 1, CLEANUP_FIRST_MS + 30_000);
    // Both workers' first run is due by now (with a margin for a busy machine's timers).
    const dueInBoth = bothWorkersAt + CLEANUP_FIRST_MS + 3_000;
    await new Promise((r) => setTimeout(r, Math.max(0, dueInBoth - Date.now())));
    expect(ran()).toBe(1);
    const { worker } = s.processes();
    expect(worker?.exitCode).toBeNull();
  }, SLOW);
});
