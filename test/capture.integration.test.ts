import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { deleteExpiredCaptures } from "@/lib/capture/cleanup-captures";
import { createTenant, type Tenant } from "./helpers/tenant";
import { portalSession } from "./helpers/portal";
import { waitUntil } from "./helpers/delivery";

// Test URLs through the API and the real worker: deliveries to one are claimed, signed, recorded
// as attempts and retried like any endpoint's; the test URL stores exactly what was sent and
// answers as set; the limits hold.

describe("test URLs", () => {
  let t: Tenant;
  let appId: string;

  beforeAll(async () => {
    t = await createTenant("capture");
    expect((await t.api("POST", "/event-type", { name: "order.paid", description: "Paid", schemas: { "1": { type: "object", properties: { id: { type: "string", examples: ["o_1"] } } } } })).status).toBe(201);
    appId = (await t.api("POST", "/app", { name: "Capture" })).body.id;
  });

  const captured = (ep: string) => t.api("GET", `/app/${appId}/capture/${ep}`).then((r) => r.body);
  const attempts = (msg: string) => t.api("GET", `/app/${appId}/attempt/msg/${msg}`).then((r) => r.body.data as any[]);

  it("records exactly what the engine sent, signed, and the attempt records its answer", async () => {
    const created = await t.api("POST", `/app/${appId}/capture`, { filterTypes: ["order.paid"] });
    expect(created.status).toBe(201);
    const ep = created.body.endpointId as string;
    expect(created.body.endpoint.url).toBe(`herald-capture:${ep}`);
    expect(new Date(created.body.expiresAt).getTime() - Date.now()).toBeGreaterThan(71 * 3600_000);
    expect((await t.api("PATCH", `/app/${appId}/endpoint/${ep}/headers`, { headers: { "x-team": "payments", "x-api-key": "k-secret" } })).status).toBe(204);

    const sent = await t.api("POST", `/app/${appId}/endpoint/${ep}/send-example`, { eventType: "order.paid" });
    expect(sent.status).toBe(200);
    const detail = await waitUntil("the captured request", () => captured(ep), (d) => d.requests?.length === 1);
    const req = detail.requests[0];
    expect(req.answerStatus).toBe(200);
    expect(req.signature).toMatchObject({ valid: true, matched: "current" });
    expect(req.headers).toMatchObject({ "webhook-id": sent.body.id, "x-team": "payments", "x-api-key": "[redacted]", "user-agent": "Herald-Webhooks/1.0" });
    const secret = (await t.api("GET", `/app/${appId}/endpoint/${ep}/secret`)).body.key as string;
    expect(new Webhook(secret).verify(req.body, req.headers)).toMatchObject({ id: sent.body.id, type: "order.paid", data: { id: "o_1" } });

    const [attempt] = await waitUntil("the attempt", () => attempts(sent.body.id), (a) => a.length === 1);
    expect(attempt).toMatchObject({ responseStatusCode: 200, response: '{"received":true}', url: `herald-capture:${ep}` });
    // The attempt stores the same request the test URL received.
    expect(attempt.request.body).toBe(req.body);
    expect(attempt.request.headers["webhook-signature"]).toBe(req.headers["webhook-signature"]);
  });

  it("answers 500 when set to, and the delivery is retried", async () => {
    const ep = (await t.api("POST", `/app/${appId}/capture`, {})).body.endpointId as string;
    expect((await t.api("PATCH", `/app/${appId}/endpoint/${ep}`, { retrySchedule: [1, 1] })).status).toBe(200);
    // An edit form sends the URL back unchanged: saving keeps the test URL; pointing the endpoint at
    // another internal URL is still refused.
    const kept = await t.api("PATCH", `/app/${appId}/endpoint/${ep}`, { url: `herald-capture:${ep}`, description: "renamed" });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body).toMatchObject({ url: `herald-capture:${ep}`, description: "renamed" });
    const moved = await t.api("PATCH", `/app/${appId}/endpoint/${ep}`, { url: `herald-capture:ep_somewhere_else` });
    expect(moved.status).toBe(422);
    expect((await t.api("PATCH", `/app/${appId}/capture/${ep}`, { answer: "nope" })).status).toBe(422);
    const set = await t.api("PATCH", `/app/${appId}/capture/${ep}`, { answer: "error" });
    expect(set.body.answer).toBe("error");
    const msg = (await t.api("POST", `/app/${appId}/endpoint/${ep}/send-example`, { eventType: "order.paid" })).body.id as string;
    const tries = await waitUntil("three failed attempts", () => attempts(msg), (a) => a.length === 3);
    expect(tries.map((a) => a.responseStatusCode)).toEqual([500, 500, 500]);
    const detail = await captured(ep);
    expect(detail.requests.map((r: any) => [r.headers["webhook-id"], r.answerStatus])).toEqual([
      [msg, 500],
      [msg, 500],
      [msg, 500],
    ]);
    const delivery = await t.db.delivery.findFirstOrThrow({ where: { messageId: msg } });
    expect(delivery).toMatchObject({ status: "failed", deadReason: "exhausted" });
  });

  it("three per application; read-only links may not create; expired ones are gone", async () => {
    const third = await t.api("POST", `/app/${appId}/capture`, {});
    expect(third.status).toBe(201);
    const fourth = await t.api("POST", `/app/${appId}/capture`, {});
    expect(fourth.status).toBe(409);
    expect(fourth.body.code).toBe("capture_limit_reached");
    const ro = await portalSession(t, appId, { readOnly: true });
    expect((await ro.api("POST", `/app/${appId}/capture`, {})).status).toBe(403);
    expect((await ro.api("GET", `/app/${appId}/capture`)).body.data).toHaveLength(3);

    const ep = third.body.endpointId as string;
    await t.db.captureInbox.update({ where: { endpointId: ep }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await t.api("GET", `/app/${appId}/capture/${ep}`)).status).toBe(404);
    expect((await t.api("POST", `/app/${appId}/capture`, {})).status).toBe(201); // the expired one no longer counts
    expect(await deleteExpiredCaptures()).toBeGreaterThanOrEqual(1);
    expect(await t.db.endpoint.findUnique({ where: { id: ep } })).toBeNull();
    // The API never accepts the internal scheme for an endpoint of its own.
    const forged = await t.api("POST", `/app/${appId}/endpoint`, { url: `herald-capture:${ep}` });
    expect(forged.status).toBe(422);
  });

  it("a slow answer is a timeout attempt, retried", async () => {
    const list = (await t.api("GET", `/app/${appId}/capture`)).body.data as { endpointId: string }[];
    const ep = list[0]!.endpointId;
    await t.api("PATCH", `/app/${appId}/capture/${ep}`, { answer: "slow" });
    await t.api("PATCH", `/app/${appId}/endpoint/${ep}`, { retrySchedule: [1] });
    const msg = (await t.api("POST", `/app/${appId}/endpoint/${ep}/send-example`, { eventType: "order.paid" })).body.id as string;
    const [first] = await waitUntil("a timed-out attempt", () => attempts(msg), (a) => a.length >= 1, 25_000);
    expect(first).toMatchObject({ responseStatusCode: 0, errorClass: "timeout" });
    expect((await captured(ep)).requests[0].answerStatus).toBe(0);
  }, 40_000);
});
