import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { secretBox } from "@/lib/services";
import { generateWebhookSecret } from "@/lib/signing/secrets";
import { USER_AGENT } from "@/lib/delivery/build-request";
import { ensureOperationalApp } from "@/lib/operational/operational-app";
import { createTenant, type Tenant } from "./helpers/tenant";
import { startReceiver, type Receiver } from "./helpers/receiver";
import { seedHistory } from "./helpers/seed-history";
import { waitForTask, waitForTaskState } from "./helpers/tasks";

// Replays: single message (the inspector's button) and range replay with its dry run, the
// confirmation-token rule (threshold, other filter, stale estimate), and the end-of-task webhooks
// (callback_url and background_task.finished) verified with the standardwebhooks package.

const HOUR = 3_600_000;

describe("replay", () => {
  let t: Tenant;
  let rx: Receiver;
  let rx2: Receiver;
  let appId: string;
  let epId: string;
  let ep2Id: string;

  beforeAll(async () => {
    t = await createTenant("tasks-replay");
    rx = await startReceiver();
    rx2 = await startReceiver();
    appId = (await t.api("POST", "/app", { name: "Replay" })).body.id;
    for (const name of ["order.paid", "order.cancelled"])
      expect((await t.api("POST", "/event-type", { name, description: name })).status).toBe(201);
    epId = (await t.api("POST", `/app/${appId}/endpoint`, { url: rx.url })).body.id;
    ep2Id = (await t.api("POST", `/app/${appId}/endpoint`, { url: rx2.url, filterTypes: ["order.paid"] })).body.id;
  });
  afterAll(async () => {
    await rx.close();
    await rx2.close();
  });

  it("replays one message as a new message linked to the original, to all subscribers or one endpoint", async () => {
    const orig = await t.api("POST", `/app/${appId}/msg`, { eventType: "order.paid", payload: { order: 1 } });
    expect(orig.status).toBe(202);
    await rx.waitFor(1);
    await rx2.waitFor(1);

    const all = await t.api("POST", `/app/${appId}/msg/${orig.body.id}/replay`, {});
    expect(all.status).toBe(202);
    expect(all.body.id).not.toBe(orig.body.id);
    expect(all.body).toMatchObject({
      replayOf: orig.body.id,
      eventType: "order.paid",
      payload: { order: 1 },
      deliveries: 2,
    });
    await rx.waitFor(2);
    await rx2.waitFor(2);
    // A replay is a new message: receivers see a new webhook-id.
    expect(rx.received[1]!.headers["webhook-id"]).toBe(all.body.id);
    expect(JSON.parse(rx.received[1]!.body).data).toEqual({ order: 1 });

    const one = await t.api("POST", `/app/${appId}/msg/${orig.body.id}/replay`, { endpoint_id: ep2Id });
    expect(one.status).toBe(202);
    expect(one.body.deliveries).toBe(1);
    await rx2.waitFor(3);
    expect(rx2.received[2]!.headers["webhook-id"]).toBe(one.body.id);
    const fetched = await t.api("GET", `/app/${appId}/msg/${one.body.id}`);
    expect(fetched.body.replayOf).toBe(orig.body.id);

    expect((await t.api("POST", `/app/${appId}/msg/${newId("message")}/replay`, {})).status).toBe(404);
    expect((await t.api("DELETE", `/app/${appId}/msg/${orig.body.id}/content`)).status).toBe(204);
    const gone = await t.api("POST", `/app/${appId}/msg/${orig.body.id}/replay`, {});
    expect(gone.status).toBe(409);
    expect(gone.body.code).toBe("payload_expunged");
  });

  it("estimates a range replay, requires its confirmation above the threshold, refuses another filter, then replays", async () => {
    const start = new Date(Date.now() - 2 * HOUR);
    const seeded = await seedHistory(db, {
      environmentId: t.environmentId,
      applicationId: appId,
      eventType: "order.cancelled",
      count: 150,
      startAt: start,
      delivery: { endpointId: epId, status: (i) => (i < 120 ? "failed" : "succeeded"), lastStatusCode: () => 500 },
    });
    const filter = {
      since: new Date(start.getTime() - 1000).toISOString(),
      until: new Date(start.getTime() + HOUR).toISOString(),
      event_types: ["order.cancelled"],
      endpoint_id: epId,
    };

    // A misspelt field is refused, not dropped (which would widen the replay to every endpoint).
    const misspelt = await t.api("POST", `/app/${appId}/replay/estimate`, { ...filter, endpoint_id: undefined, endpointId: epId });
    expect(misspelt.status).toBe(422);
    expect(JSON.stringify(misspelt.body.detail)).toContain("endpointId");
    const est = await t.api("POST", `/app/${appId}/replay/estimate`, filter);
    expect(est.status).toBe(200);
    expect(est.body).toMatchObject({
      messages: 150,
      deliveries: 150,
      endpoints: 1,
      threshold: 100,
      confirmation_required: true,
      endpoint_id: epId,
    });
    expect(typeof est.body.confirmation).toBe("string");

    const failedOnly = await t.api("POST", `/app/${appId}/replay/estimate`, { ...filter, original_status: ["fail"] });
    expect(failedOnly.body).toMatchObject({ messages: 120, deliveries: 120 });
    const undelivered = await t.api("POST", `/app/${appId}/replay/estimate`, { ...filter, only_undelivered: true });
    expect(undelivered.body.messages).toBe(120);
    // ep2 only subscribes to order.paid: a replay "to all" reaches ep only.
    const toAll = await t.api("POST", `/app/${appId}/replay/estimate`, { ...filter, endpoint_id: undefined });
    expect(toAll.body).toMatchObject({ messages: 150, deliveries: 150, endpoints: 1 });

    const missing = await t.api("POST", `/app/${appId}/replay`, filter);
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(["body", "confirmation"]);
    expect(missing.body.detail[0].msg).toContain("150 deliveries");

    const otherFilter = await t.api("POST", `/app/${appId}/replay`, {
      ...filter,
      original_status: ["fail"],
      confirmation: est.body.confirmation,
    });
    expect(otherFilter.status).toBe(422);
    expect(otherFilter.body.detail[0].msg).toContain("different filter");
    const forged = await t.api("POST", `/app/${appId}/replay`, {
      ...filter,
      confirmation: est.body.confirmation.slice(0, -4) + "AAAA",
    });
    expect(forged.status).toBe(422);

    const started = await t.api("POST", `/app/${appId}/replay`, { ...filter, confirmation: est.body.confirmation });
    expect(started.status).toBe(202);
    expect(Object.keys(started.body).sort()).toEqual(["events_url", "status", "status_url", "task_id"]);
    expect(started.body.status).toBe("pending");
    expect(started.headers.get("location")).toBe(started.body.status_url);

    const task = await waitForTask(t.api, started.body.task_id);
    expect(task).toMatchObject({
      kind: "replay",
      status: "completed",
      done: 150,
      total: 150,
      progress: 100,
      endpoint_id: epId,
    });
    expect(task.result).toEqual({ messages: 150, deliveries: 150 });

    const copies = await db.message.findMany({
      where: { applicationId: appId, replayOfId: { in: seeded.messageIds } },
      select: { id: true, replayOfId: true, payload: true },
    });
    expect(copies).toHaveLength(150);
    expect(new Set(copies.map((c) => c.replayOfId)).size).toBe(150);
    expect(copies.every((c) => !seeded.messageIds.includes(c.id))).toBe(true);
    const delivered = await db.delivery.count({
      where: { messageId: { in: copies.map((c) => c.id) }, endpointId: epId },
    });
    expect(delivered).toBe(150);
  });

  it("a message sent to chosen endpoints (a sample, a replay to one) is replayed only to those; the estimate counts what the run sends", async () => {
    const a = await startReceiver();
    const b = await startReceiver();
    const app = (await t.api("POST", "/app", { name: "Addressed" })).body.id;
    const epA = (await t.api("POST", `/app/${app}/endpoint`, { url: a.url })).body.id;
    const epB = (await t.api("POST", `/app/${app}/endpoint`, { url: b.url })).body.id;
    const since = new Date(Date.now() - 1000).toISOString();
    for (const order of [1, 2])
      expect((await t.api("POST", `/app/${app}/msg`, { eventType: "order.paid", payload: { order } })).status).toBe(202);
    const sample = await t.api("POST", `/app/${app}/endpoint/${epA}/send-example`, { eventType: "order.paid", payload: { sample: true } });
    expect(sample.status, JSON.stringify(sample.body)).toBe(200);
    await a.waitFor(3);
    await b.waitFor(2);

    const estimate = async (filter: Record<string, unknown>) => {
      const res = await t.api("POST", `/app/${app}/replay/estimate`, { since, ...filter });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { messages: number; deliveries: number; endpoints: number; until: string };
    };
    const run = async (filter: Record<string, unknown>) => {
      const started = await t.api("POST", `/app/${app}/replay`, { since, ...filter });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const task = await waitForTask(t.api, started.body.task_id);
      expect(task.status).toBe("completed");
      return { task, copies: await db.message.findMany({ where: { taskId: started.body.task_id }, include: { deliveries: true } }) };
    };
    const sources = (copies: { replayOfId: string | null }[]) => copies.map((c) => c.replayOfId).sort();
    const endpointsOf = (copies: { deliveries: { endpointId: string }[] }[]) => [...new Set(copies.flatMap((c) => c.deliveries.map((d) => d.endpointId)))];

    // B subscribes to everything, but the sample was A's alone.
    const toB = await estimate({ endpoint_id: epB });
    expect(toB).toMatchObject({ messages: 2, deliveries: 2, endpoints: 1 });
    const ranB = await run({ endpoint_id: epB, until: toB.until });
    expect(ranB.task.result).toEqual({ messages: 2, deliveries: 2 });
    expect(sources(ranB.copies)).not.toContain(sample.body.id);
    expect(endpointsOf(ranB.copies)).toEqual([epB]);

    const toA = await estimate({ endpoint_id: epA, until: toB.until });
    expect(toA).toMatchObject({ messages: 3, deliveries: 3, endpoints: 1 });
    const ranA = await run({ endpoint_id: epA, until: toB.until });
    expect(ranA.task.result).toEqual({ messages: 3, deliveries: 3 });
    expect(sources(ranA.copies)).toContain(sample.body.id);
    expect(endpointsOf(ranA.copies)).toEqual([epA]);

    // To every endpoint: the two messages to both, the sample to A only.
    const toAll = await estimate({ until: toB.until });
    expect(toAll).toMatchObject({ messages: 3, deliveries: 5, endpoints: 2 });
    const ranAll = await run({ until: toB.until });
    expect(ranAll.task.result).toEqual({ messages: 3, deliveries: 5 });
    const sampleCopy = ranAll.copies.find((c) => c.replayOfId === sample.body.id)!;
    expect(sampleCopy.deliveries.map((d) => d.endpointId)).toEqual([epA]);

    // A replay to one endpoint is addressed to it too: with include_replays, B gets its own
    // copies (and the messages by subscription) but none of A's.
    const withReplays = await estimate({ endpoint_id: epB, include_replays: true });
    expect(withReplays.messages).toBe(2 + ranB.copies.length + ranAll.copies.filter((c) => c.replayOfId !== sample.body.id).length);

    // The inspector's replay "to every endpoint" of the sample goes to A alone, as it was sent.
    const single = await t.api("POST", `/app/${app}/msg/${sample.body.id}/replay`, {});
    expect(single.status).toBe(202);
    expect(single.body.deliveries).toBe(1);
    expect(await db.delivery.findMany({ where: { messageId: single.body.id }, select: { endpointId: true } })).toEqual([{ endpointId: epA }]);
    // Naming an endpoint is an explicit choice for one message: it goes there, A's sample included.
    const toNamed = await t.api("POST", `/app/${app}/msg/${sample.body.id}/replay`, { endpoint_id: epB });
    expect(toNamed.status).toBe(202);
    expect(await db.delivery.findMany({ where: { messageId: toNamed.body.id }, select: { endpointId: true } })).toEqual([{ endpointId: epB }]);
    // A misspelt field is refused, not dropped (which would widen the replay).
    const misspelt = await t.api("POST", `/app/${app}/msg/${sample.body.id}/replay`, { endpointId: epB });
    expect(misspelt.status).toBe(422);
    // With A disabled, replaying its sample "as it was sent" has nowhere to go: a 409, not a 202 to nobody.
    await t.api("PATCH", `/app/${app}/endpoint/${epA}`, { disabled: true });
    const nowhere = await t.api("POST", `/app/${app}/msg/${sample.body.id}/replay`, {});
    expect(nowhere.status, JSON.stringify(nowhere.body)).toBe(409);
    expect(nowhere.body.code).toBe("endpoint_not_active");
    await a.close();
    await b.close();
  });

  it("refuses a confirmation whose estimate went stale (409), and needs none under the threshold", async () => {
    const start = new Date(Date.now() - 5 * HOUR);
    await seedHistory(db, {
      environmentId: t.environmentId,
      applicationId: appId,
      eventType: "order.paid",
      count: 120,
      startAt: start,
    });
    const filter = {
      since: new Date(start.getTime() - 1000).toISOString(),
      until: new Date(start.getTime() + 1000).toISOString(),
      event_types: ["order.paid"],
    };
    const est = await t.api("POST", `/app/${appId}/replay/estimate`, filter);
    expect(est.body).toMatchObject({ messages: 120, deliveries: 240, endpoints: 2 });

    // A third subscribed endpoint appears: the same replay would now create 360 deliveries.
    const rx3 = await startReceiver();
    const ep3 = (await t.api("POST", `/app/${appId}/endpoint`, { url: rx3.url, filterTypes: ["order.paid"] })).body.id;
    const stale = await t.api("POST", `/app/${appId}/replay`, { ...filter, confirmation: est.body.confirmation });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe("estimate_stale");
    expect(stale.body.detail).toContain("240");
    expect(stale.body.detail).toContain("360");
    await t.api("DELETE", `/app/${appId}/endpoint/${ep3}`);
    await rx3.close();

    // 40 messages to one endpoint: under the threshold, no confirmation needed.
    const small = { ...filter, until: new Date(start.getTime() + 40).toISOString(), endpoint_id: ep2Id };
    const ok = await t.api("POST", `/app/${appId}/replay`, small);
    expect(ok.status).toBe(202);
    const task = await waitForTask(t.api, ok.body.task_id);
    expect(task).toMatchObject({ status: "completed", done: 40, result: { messages: 40, deliveries: 40 } });
  });

  it("when a task ends: a signed callback to callback_url and the background_task.finished operational webhook", async () => {
    const cb = await startReceiver();
    const ops = await startReceiver();
    const opsSecret = generateWebhookSecret();
    const opsApp = await ensureOperationalApp(t.environmentId);
    await db.endpoint.create({
      data: {
        id: newId("endpoint"),
        environmentId: t.environmentId,
        applicationId: opsApp.id,
        url: ops.url,
        eventTypes: ["background_task.finished"],
        channels: [],
        secretEncrypted: secretBox().seal(opsSecret),
      },
    });

    const refused = await t.api("POST", `/app/${appId}/replay`, {
      endpoint_id: epId,
      since: new Date(Date.now() - 60_000).toISOString(),
      callback_url: "http://127.0.0.2:9/hook",
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0].loc).toEqual(["body", "callback_url"]);

    const started = await t.api("POST", `/app/${appId}/replay`, {
      endpoint_id: epId,
      since: new Date(Date.now() - 60_000).toISOString(),
      callback_url: cb.url,
    });
    expect(started.status).toBe(202);
    const secret = started.body.callback_secret as string;
    expect(secret).toMatch(/^whsec_/);
    await cb.waitFor(1);
    const call = cb.received[0]!;
    const verified = new Webhook(secret).verify(call.body, call.headers) as any;
    expect(call.headers["webhook-id"]).toBe(started.body.task_id);
    // Sent by the deliveries' HTTP client, with their headers.
    expect(call.headers["user-agent"]).toBe(USER_AGENT);
    expect(call.headers["content-type"]).toBe("application/json");
    expect(call.headers["svix-signature"]).toBe(call.headers["webhook-signature"]);
    expect(verified).toMatchObject({
      type: "background_task.finished",
      data: {
        taskId: started.body.task_id,
        task: "message.replay",
        status: "completed",
        data: { id: started.body.task_id, status: "completed" },
      },
    });
    expect(() => new Webhook(generateWebhookSecret()).verify(call.body, call.headers)).toThrow();

    await ops.waitFor(1);
    const op = ops.received.find((r) => r.body.includes(started.body.task_id))!;
    const opBody = new Webhook(opsSecret).verify(op.body, op.headers) as any;
    expect(opBody.type).toBe("background_task.finished");
    expect(JSON.stringify(opBody)).toContain(started.body.task_id);

    // Recorded once the callback's answer is in (just after the receiver saw it).
    const task = await waitForTaskState(t.api, started.body.task_id, (x) => x.callback_status !== null);
    expect(task.callback_status).toBe("delivered");
    await cb.close();
    await ops.close();
  });
});
