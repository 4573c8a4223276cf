import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { transitionTask, IllegalTransition } from "@/lib/tasks/task-state";
import { createTenant, baseUrl, type Tenant } from "./helpers/tenant";
import { startReceiver, type Receiver } from "./helpers/receiver";
import { seedHistory } from "./helpers/seed-history";
import { readSse } from "./helpers/sse";
import { waitForTask } from "./helpers/tasks";
import { pollUntil } from "./helpers/sdk";
import { portalSession } from "./helpers/portal";

// The task resource: recover (Svix semantics), GET/list/cancel, one task per target, the state
// machine against the database, and access control across environments and portal sessions.

const HOUR = 3_600_000;

/** A task row that looks taken by a live worker elsewhere: nothing here runs or resumes it. */
async function fakeRunningTask(t: Tenant, appId: string, endpointId: string | null, kind: "recover" | "replay") {
  return db.task.create({
    data: {
      id: newId("task"),
      environmentId: t.environmentId,
      applicationId: appId,
      endpointId,
      kind,
      status: "running",
      startedAt: new Date(),
      leaseOwner: "test-elsewhere",
      leaseUntil: new Date(Date.now() + HOUR),
      params: {},
    },
  });
}

/** A pending export task created in the future: the sweeper leaves it alone, so the test drives it. */
async function pendingTask(t: Tenant, appId: string) {
  return db.task.create({
    data: {
      id: newId("task"),
      environmentId: t.environmentId,
      applicationId: appId,
      kind: "export",
      params: {},
      createdAt: new Date(Date.now() + HOUR),
    },
  });
}

describe("async tasks: resource, recover, access control", () => {
  let t: Tenant;
  let other: Tenant;
  let receiver: Receiver;
  let appId: string;
  let epId: string;

  beforeAll(async () => {
    t = await createTenant("tasks-api");
    other = await createTenant("tasks-api-other");
    receiver = await startReceiver();
    appId = (await t.api("POST", "/app", { name: "Tasks A", uid: "tasks-a" })).body.id;
    expect((await t.api("POST", "/event-type", { name: "invoice.paid", description: "Paid" })).status).toBe(201);
    const ep = await t.api("POST", `/app/${appId}/endpoint`, { url: receiver.url });
    expect(ep.status).toBe(201);
    epId = ep.body.id;
  });
  afterAll(async () => {
    await receiver.close();
  });

  it("recover answers Svix's RecoverOut (202) and re-attempts exactly the failed deliveries in range, same webhook-id", async () => {
    const now = Date.now();
    const older = await seedHistory(db, {
      environmentId: t.environmentId,
      applicationId: appId,
      eventType: "invoice.paid",
      count: 5,
      startAt: new Date(now - 3 * HOUR),
      delivery: { endpointId: epId, status: "failed", lastStatusCode: () => 500 },
    });
    const recent = await seedHistory(db, {
      environmentId: t.environmentId,
      applicationId: appId,
      eventType: "invoice.paid",
      count: 30,
      startAt: new Date(now - HOUR / 2),
      delivery: {
        endpointId: epId,
        status: (i) => (i % 3 === 0 ? "failed" : "succeeded"),
        lastStatusCode: (i) => (i % 3 === 0 ? 503 : 200),
      },
    });
    const failedIds = recent.messageIds.filter((_, i) => i % 3 === 0);

    const res = await t.api("POST", `/app/${appId}/endpoint/${epId}/recover`, {
      since: new Date(now - HOUR).toISOString(),
    });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(["id", "status", "task", "updatedAt"]);
    expect(res.body).toMatchObject({ status: "running", task: "endpoint.recover" });
    expect(res.body.id).toMatch(/^qtask_/);

    const task = await waitForTask(t.api, res.body.id);
    expect(task).toMatchObject({
      id: res.body.id,
      kind: "recover",
      status: "completed",
      progress: 100,
      done: 10,
      total: 10,
      app_id: appId,
      endpoint_id: epId,
      result: { retried: 10, skipped: 0 },
      estimated_completion: null,
    });
    expect(task.error).toBeUndefined();
    expect(task.result_url).toBeUndefined();
    for (const k of ["created_at", "started_at", "completed_at"])
      expect(new Date(task[k]).toString()).not.toBe("Invalid Date");
    expect(task.status_url).toBe(`${baseUrl()}/api/v1/tasks/${task.id}`);

    await receiver.waitFor(10);
    const got = receiver.received.map((r) => r.headers["webhook-id"]);
    // A retry keeps the delivery's identity: webhook-id is the original message id.
    expect(new Set(got)).toEqual(new Set(failedIds));
    for (const id of older.messageIds) expect(got).not.toContain(id);
    // The receiver answers before the engine records the outcome: wait for the records.
    const statuses = await pollUntil(
      () => db.delivery.groupBy({ by: ["status"], where: { messageId: { in: failedIds } }, _count: true }),
      (s) => s.length === 1 && s[0]!.status === "succeeded",
    );
    expect(statuses).toEqual([{ status: "succeeded", _count: 10 }]);
  });

  it("lists tasks with kind, status and endpoint filters and cursor pagination", async () => {
    const res = await t.api("POST", `/app/${appId}/endpoint/${epId}/recover`, {
      since: new Date(Date.now() - HOUR).toISOString(),
    });
    await waitForTask(t.api, res.body.id);
    const all = await t.api("GET", `/tasks?kind=recover&status=completed&endpoint_id=${epId}`);
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBeGreaterThanOrEqual(2);
    expect(
      all.body.data.every((x: any) => x.kind === "recover" && x.status === "completed" && x.endpoint_id === epId),
    ).toBe(true);
    // Newest first.
    expect(all.body.data[0].id).toBe(res.body.id);

    const page1 = await t.api("GET", `/tasks?kind=recover&limit=1`);
    expect(page1.body.data).toHaveLength(1);
    expect(page1.body.done).toBe(false);
    const page2 = await t.api("GET", `/tasks?kind=recover&limit=1&iterator=${page1.body.iterator}`);
    expect(page2.body.data).toHaveLength(1);
    expect(page2.body.data[0].id).not.toBe(page1.body.data[0].id);

    expect((await t.api("GET", `/tasks?kind=export`)).body.data).toEqual([]);
    expect((await t.api("GET", `/tasks?status=bogus`)).status).toBe(422);
  });

  it("one unfinished task of a kind per endpoint, and an app-wide task excludes the app's endpoint tasks (409 naming it)", async () => {
    const running = await fakeRunningTask(t, appId, epId, "recover");
    const second = await t.api("POST", `/app/${appId}/endpoint/${epId}/recover`, {
      since: new Date(Date.now() - HOUR).toISOString(),
    });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe("task_already_running");
    expect(second.body.detail).toContain(running.id);

    // Replay to all endpoints of the app while a replay to one of them is unfinished, and vice versa.
    const one = await fakeRunningTask(t, appId, epId, "replay");
    const all = await t.api("POST", `/app/${appId}/replay`, { since: new Date(Date.now() - 60_000).toISOString() });
    expect(all.status).toBe(409);
    expect(all.body.detail).toContain(one.id);
    await transitionTask(one.id, "running", "cancelled");
    const wide = await fakeRunningTask(t, appId, null, "replay");
    const toOne = await t.api("POST", `/app/${appId}/replay`, {
      endpoint_id: epId,
      since: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(toOne.status).toBe(409);
    expect(toOne.body.detail).toContain(wide.id);
    expect(toOne.body.detail).toContain("all endpoints");

    // Cancel of a running task whose worker does not answer within the wait: 202, cancel recorded.
    const cancel = await t.api("POST", `/tasks/${running.id}/cancel`);
    expect(cancel.status).toBe(202);
    expect(cancel.body.status).toBe("running");
    expect(cancel.body.cancel_requested_at).not.toBeNull();
    await transitionTask(running.id, "running", "cancelled");
    await transitionTask(wide.id, "running", "cancelled");
  });

  it("enforces the state machine in the database: compare-and-set on the current status, nothing out of a final state", async () => {
    const task = await pendingTask(t, appId);
    expect(await transitionTask(task.id, "running", "completed")).toBeNull(); // it is not running
    const running = await transitionTask(task.id, "pending", "running", {
      leaseOwner: "test",
      leaseUntil: new Date(Date.now() + HOUR),
    });
    expect(running?.status).toBe("running");
    expect(running?.startedAt).not.toBeNull();
    expect(await transitionTask(task.id, "pending", "running")).toBeNull(); // already taken
    expect(await transitionTask(task.id, "running", "failed", {}, { leaseOwner: "someone-else" })).toBeNull();
    const done = await transitionTask(task.id, "running", "completed", {}, { leaseOwner: "test" });
    expect(done).toMatchObject({ status: "completed", leaseOwner: null });
    expect(done?.completedAt).not.toBeNull();
    await expect(transitionTask(task.id, "completed", "running")).rejects.toThrow(IllegalTransition);
    await expect(transitionTask(task.id, "completed", "cancelled")).rejects.toThrow(IllegalTransition);
    await expect(transitionTask(task.id, "running", "pending")).rejects.toThrow(IllegalTransition);
    const cancelFinished = await t.api("POST", `/tasks/${task.id}/cancel`);
    expect(cancelFinished.status).toBe(409);
    expect(cancelFinished.body.code).toBe("task_finished");

    // pending → cancelled through the API, at once.
    const pending = await pendingTask(t, appId);
    const cancelled = await t.api("POST", `/tasks/${pending.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled", done: 0 });
    expect(cancelled.body.summary).toContain("cancelled");
    // Cancelling again is harmless.
    expect((await t.api("POST", `/tasks/${pending.id}/cancel`)).status).toBe(200);
  });

  it("another environment's task ids are 404 everywhere, and a malformed id is a 422", async () => {
    const mine = (await t.api("GET", "/tasks?kind=recover&limit=1")).body.data[0];
    expect(mine).toBeDefined();
    for (const [method, path] of [
      ["GET", `/tasks/${mine.id}`],
      ["POST", `/tasks/${mine.id}/cancel`],
      ["GET", `/tasks/${mine.id}/events`],
      ["GET", `/tasks/${mine.id}/result`],
    ] as const) {
      const res = await other.api(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await other.api("GET", "/tasks")).body.data).toEqual([]);
    expect((await other.api("GET", `/tasks?app_id=${appId}`)).status).toBe(404);
    expect((await t.api("GET", "/tasks/not-a-task")).status).toBe(422);
    expect((await t.api("GET", `/tasks/${newId("task")}`)).status).toBe(404);
  });

  it("a portal session sees and streams its application's tasks only; app B's session gets 404 for app A's task", async () => {
    const appB = (await t.api("POST", "/app", { name: "Tasks B", uid: "tasks-b" })).body.id;
    const epB = (await t.api("POST", `/app/${appB}/endpoint`, { url: receiver.url })).body.id;
    const a = await portalSession(t, appId);
    const b = await portalSession(t, appB);

    // The portal can start a task on its own application.
    const started = await b.api("POST", `/app/${appB}/endpoint/${epB}/recover`, {
      since: new Date(Date.now() - HOUR).toISOString(),
    });
    expect(started.status).toBe(202);
    const bTask = await waitForTask(b.api, started.body.id);
    expect(bTask.app_id).toBe(appB);

    const aTask = (await t.api("GET", `/tasks?app_id=${appId}&limit=1`)).body.data[0];
    expect((await b.api("GET", `/tasks/${aTask.id}`)).status).toBe(404);
    expect((await b.api("POST", `/tasks/${aTask.id}/cancel`)).status).toBe(404);
    expect((await b.api("GET", `/tasks/${aTask.id}/events`)).status).toBe(404);
    expect(
      (
        await b.api("POST", `/app/${appId}/endpoint/${epId}/recover`, {
          since: new Date(Date.now() - HOUR).toISOString(),
        })
      ).status,
    ).toBe(404);
    const bList = await b.api("GET", "/tasks");
    expect(bList.body.data.map((x: any) => x.id)).toEqual([bTask.id]);
    expect((await b.api("GET", `/tasks?app_id=${appId}`)).status).toBe(404);
    expect((await a.api("GET", `/tasks/${aTask.id}`)).status).toBe(200);
    expect((await a.api("GET", "/tasks")).body.data.every((x: any) => x.app_id === appId)).toBe(true);

    // The signed events link works without a header (EventSource), but only for its own task.
    const linkB = (await b.api("GET", `/tasks/${bTask.id}`)).body.events_url as string;
    expect(new URL(linkB).pathname).toBe(`/api/v1/tasks/${bTask.id}/events`);
    const stream = await readSse(linkB, { maxMs: 20_000 });
    expect(stream.status).toBe(200);
    expect(stream.contentType).toContain("text/event-stream");
    const last = JSON.parse(stream.events[stream.events.length - 1]!.data);
    expect(last).toMatchObject({ id: bTask.id, status: "completed" });
    const token = new URL(linkB).searchParams.get("token")!;
    const wrongTask = await fetch(`${baseUrl()}/api/v1/tasks/${aTask.id}/events?token=${token}`);
    expect(wrongTask.status).toBe(401);
    const tampered = await fetch(`${baseUrl()}/api/v1/tasks/${bTask.id}/events?token=${token.slice(0, -3)}xyz`);
    expect(tampered.status).toBe(401);
    expect((await fetch(`${baseUrl()}/api/v1/tasks/${bTask.id}/events`)).status).toBe(401);

    // A session with a header streams over fetch too.
    const viaHeader = await readSse(`${baseUrl()}/api/v1/tasks/${bTask.id}/events`, {
      headers: { authorization: `Bearer ${b.session}` },
      maxMs: 20_000,
    });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.events.map((e) => e.event)).toEqual(["status"]);
  });
});
