import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTenant, type Tenant } from "./helpers/tenant";
import { portalSession, type PortalClient } from "./helpers/portal";
import { startReceiver, type Receiver } from "./helpers/receiver";

// "Send sample" with the integrator's own payload: send-example and preview-example check it
// against the event type's newest schema with the checker the portal page runs as they type, and
// refuse a mismatch with a 422 naming each wrong field; "use a recent message" lists only the
// session's application's messages.

const ORDER_SCHEMA = {
  type: "object",
  required: ["order_id", "amount"],
  properties: { order_id: { type: "string" }, amount: { type: "integer", minimum: 1 }, lines: { type: "array", items: { type: "object", required: ["sku"] } } },
};

type Res = Awaited<ReturnType<Tenant["api"]>>;
const locs = (res: Res) => (res.body.detail as { loc: (string | number)[] }[]).map((d) => d.loc.join("."));

describe("send sample with your own payload", () => {
  let t: Tenant;
  let appId: string;
  let epId: string;
  let portal: PortalClient;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver((_req, res) => void res.writeHead(204).end());
    t = await createTenant("send-sample");
    appId = (await t.api("POST", "/app", { name: "Samples" })).body.id;
    expect((await t.api("POST", "/event-type", { name: "order.created", description: "created", schemas: { "1": { type: "object" }, "2": ORDER_SCHEMA } })).status).toBe(201);
    expect((await t.api("POST", "/event-type", { name: "note.added", description: "no schema" })).status).toBe(201);
    epId = (await t.api("POST", `/app/${appId}/endpoint`, { url: `${receiver.url}/a` })).body.id;
    await t.api("POST", `/app/${appId}/endpoint`, { url: `${receiver.url}/b` });
    portal = await portalSession(t, appId);
  });
  afterAll(() => receiver.close());

  const messages = () => db.message.count({ where: { applicationId: appId } });

  it("refuses a payload that does not match the newest schema, naming each field, and stores nothing", async () => {
    const before = await messages();
    const bad = { order_id: 7, lines: [{ sku: "a" }, {}] };
    const path = `/app/${appId}/endpoint/${epId}/send-example`;
    for (const res of [await t.api("POST", path, { eventType: "order.created", payload: bad }), await portal.api("POST", path, { eventType: "order.created", payload: bad })]) {
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.detail).toEqual(
        expect.arrayContaining([
          { loc: ["body", "payload", "order_id"], msg: "must be string", type: "value_error.schema" },
          { loc: ["body", "payload", "amount"], msg: "is required", type: "value_error.schema" },
          { loc: ["body", "payload", "lines", 1, "sku"], msg: "is required", type: "value_error.schema" },
        ]),
      );
    }
    // The preview of the edited payload says the same, so the page never shows a request the send refuses.
    const preview = await portal.api("POST", `/portal/app/${appId}/endpoint/${epId}/preview-example`, { eventType: "order.created", payload: bad });
    expect(preview.status).toBe(422);
    expect(locs(preview)).toEqual(expect.arrayContaining(["body.payload.order_id", "body.payload.amount", "body.payload.lines.1.sku"]));
    const notObject = await portal.api("POST", path, { eventType: "order.created", payload: [1] });
    expect(notObject.status).toBe(422);
    expect(locs(notObject)).toContain("body.payload");
    expect(await messages()).toBe(before);
  });

  it("checks an operator's backtracking pattern in linear time: one sample cannot hold the web process", async () => {
    // "^(a+)+$" against 60 a's and a "b" takes about 2^60 steps in JavaScript's own engine.
    const name = "code.entered";
    const schema = { type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } } };
    expect((await t.api("POST", "/event-type", { name, description: "pattern", schemas: { "1": schema } })).status).toBe(201);
    const evil = { code: `${"a".repeat(60)}b` };
    const preview = await portal.api("POST", `/portal/app/${appId}/endpoint/${epId}/preview-example`, { eventType: name, payload: evil });
    expect(preview.status, JSON.stringify(preview.body)).toBe(422);
    expect(locs(preview)).toEqual(["body.payload.code"]);
    // The process still answers (a blocked event loop would time this out too).
    expect((await t.api("GET", `/app/${appId}`)).status).toBe(200);
  });

  it("sends a matching payload as given, to that endpoint only; the preview shows it in the body", async () => {
    const mine = { order_id: "ord_mine", amount: 99, lines: [{ sku: "tea" }] };
    const preview = await portal.api("POST", `/portal/app/${appId}/endpoint/${epId}/preview-example`, { eventType: "order.created", payload: mine });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.payload).toEqual(mine);
    expect(JSON.parse(preview.body.body as string)).toMatchObject({ type: "order.created", data: mine });

    const sent = await portal.api("POST", `/app/${appId}/endpoint/${epId}/send-example`, { eventType: "order.created", payload: mine });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.payload).toEqual(mine);
    expect(await db.delivery.findMany({ where: { messageId: sent.body.id as string }, select: { endpointId: true } })).toEqual([{ endpointId: epId }]);
    await receiver.waitFor(1);
    const got = receiver.received.find((r) => r.body.includes("ord_mine"))!;
    expect(got.path).toBe("/webhook/a");
    expect(JSON.parse(got.body)).toMatchObject({ id: sent.body.id, data: mine });
  });

  it("without a payload sends the schema's example as before; without a schema any object goes", async () => {
    const example = await t.api("POST", `/app/${appId}/endpoint/${epId}/send-example`, { eventType: "order.created" });
    expect(example.status, JSON.stringify(example.body)).toBe(200);
    const free = await portal.api("POST", `/app/${appId}/endpoint/${epId}/send-example`, { eventType: "note.added", payload: { anything: [1, "two"] } });
    expect(free.status, JSON.stringify(free.body)).toBe(200);
    expect(free.body.payload).toEqual({ anything: [1, "two"] });
  });

  it("lists recent messages of a type for the session's application only", async () => {
    const other = (await t.api("POST", "/app", { name: "Other" })).body.id as string;
    await t.api("POST", `/app/${other}/msg`, { eventType: "order.created", payload: { order_id: "ord_other_app", amount: 1 } });
    const real = (await t.api("POST", `/app/${appId}/msg`, { eventType: "order.created", payload: { order_id: "ord_real", amount: 3 } })).body.id as string;
    const list = await portal.api("GET", `/app/${appId}/msg?event_types=order.created&limit=5`);
    expect(list.status).toBe(200);
    const rows = list.body.data as { id: string; eventType: string; payload: Record<string, unknown> }[];
    expect(rows[0]).toMatchObject({ id: real, payload: { order_id: "ord_real", amount: 3 } });
    expect(rows.every((r) => r.eventType === "order.created")).toBe(true);
    expect(rows.map((r) => r.payload.order_id)).not.toContain("ord_other_app");
    // The other application is not this session's: its messages are not found at all.
    expect((await portal.api("GET", `/app/${other}/msg?event_types=order.created`)).status).toBe(404);
  });
});
