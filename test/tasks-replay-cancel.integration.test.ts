import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTenant, type Tenant } from "./helpers/tenant";
import { startReceiver, type Receiver } from "./helpers/receiver";
import { seedHistory } from "./helpers/seed-history";
import { waitForTask } from "./helpers/tasks";

// Cancelling a range replay stops its deliveries, counted by a real receiver: after the cancel
// answers, at most the requests already in flight arrive, then nothing more. The deliveries not
// attempted are marked cancelled and counted in the task's result, and the replay's progress
// (GET /tasks/{id}/deliveries) counts what was delivered, not what was queued.

const HOUR = 3_600_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("range replay cancel", () => {
  let t: Tenant;
  let rx: Receiver;
  let appId: string;
  let epId: string;

  beforeAll(async () => {
    t = await createTenant("replay-cancel");
    // A slow receiver: 150 ms per request, so the replay's deliveries take a while to drain.
    rx = await startReceiver((_r, res) => void setTimeout(() => res.writeHead(200).end("ok"), 150));
    appId = (await t.api("POST", "/app", { name: "Replay cancel" })).body.id;
    expect((await t.api("POST", "/event-type", { name: "order.paid", description: "paid" })).status).toBe(201);
    epId = (await t.api("POST", `/app/${appId}/endpoint`, { url: rx.url })).body.id;
  });
  afterAll(() => rx.close());

  it("stops further requests within a few seconds and counts what it cancelled", async () => {
    const start = new Date(Date.now() - 2 * HOUR);
    await seedHistory(db, {
      environmentId: t.environmentId,
      applicationId: appId,
      eventType: "order.paid",
      count: 300,
      startAt: start,
      delivery: { endpointId: epId, status: () => "succeeded" },
    });
    const filter = { since: new Date(start.getTime() - 1000).toISOString(), until: new Date(start.getTime() + HOUR).toISOString(), endpoint_id: epId };
    const est = await t.api("POST", `/app/${appId}/replay/estimate`, filter);
    expect(est.body).toMatchObject({ messages: 300, deliveries: 300 });
    const started = await t.api("POST", `/app/${appId}/replay`, { ...filter, confirmation: est.body.confirmation });
    expect(started.status).toBe(202);
    const taskId = started.body.task_id as string;

    await rx.waitFor(20, 30_000);
    // Progress counts deliveries that reached the receiver, not messages queued.
    const during = await t.api("GET", `/tasks/${taskId}/deliveries`);
    expect(during.status).toBe(200);
    expect(during.body.delivered).toBeLessThan(300);
    expect(during.body.delivered).toBeLessThanOrEqual(rx.received.length);

    const cancelAt = Date.now();
    const cancel = await t.api("POST", `/tasks/${taskId}/cancel`);
    expect([200, 202]).toContain(cancel.status);
    const task = await waitForTask(t.api, taskId);
    expect(task.status).toBe("cancelled");

    // Requests already under way when the cancel landed still arrive, for a few seconds at most
    // (an attempt in flight, or a job that had picked its delivery up and waits for a slot)...
    await sleep(5_000);
    const settled = rx.received.length;
    const lastAt = rx.received[settled - 1]!.at;
    const after = rx.received.filter((r) => r.at > cancelAt).length;
    console.log(`replay cancel: ${settled} of 300 delivered; ${after} requests arrived after the cancel was sent, the last ${lastAt - cancelAt} ms after it`);
    expect(lastAt - cancelAt).toBeLessThan(5_000);
    // ...and after that, nothing more.
    await sleep(5_000);
    expect(rx.received.length).toBe(settled);
    expect(settled).toBeLessThan(300);

    const counts = (await t.api("GET", `/tasks/${taskId}/deliveries`)).body;
    expect(counts).toMatchObject({ task_id: taskId, waiting: 0, sending: 0, retrying: 0, failed: 0 });
    expect(counts.delivered).toBe(settled); // one request per delivered delivery
    expect(counts.cancelled).toBeGreaterThan(0);
    expect(counts.delivered + counts.cancelled).toBe(counts.total);
    const final = (await t.api("GET", `/tasks/${taskId}`)).body;
    expect(final.result.cancelled).toBe(counts.cancelled);
    expect(final.summary).toContain(`${counts.cancelled} deliveries not yet attempted were stopped`);

    // The cancelled deliveries are in the portal's log as cancelled.
    const canceled = await db.delivery.count({ where: { endpointId: epId, status: "canceled" } });
    expect(canceled).toBe(counts.cancelled);

    // Not a replay task: it created no deliveries of its own, and says so (every GET of a task
    // the caller can see answers 2xx, as the API document promises).
    const retry = await t.api("POST", `/app/${appId}/bulk-retry`, { endpoint_id: epId, status_code: 500 });
    expect(retry.status, JSON.stringify(retry.body)).toBe(202);
    const other = await t.api("GET", `/tasks/${retry.body.task_id}/deliveries`);
    expect(other.status).toBe(200);
    expect(other.body).toEqual({ task_id: retry.body.task_id, total: 0, delivered: 0, failed: 0, cancelled: 0, retrying: 0, sending: 0, waiting: 0 });
  }, 90_000);
});
