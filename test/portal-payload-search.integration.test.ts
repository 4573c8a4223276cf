import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/ids";
import { ValidationError } from "@/lib/http/errors";
import { messagesByPayload } from "@/lib/portal/search-payloads";
import { createTenant, type Tenant } from "./helpers/tenant";
import { portalSession, seedDelivery, type PortalClient } from "./helpers/portal";

// Search inside payloads from the portal's delivery log: case-insensitive text in the payload's
// JSON, within 7 days (the last 7 by default), combined with the other filters, the newest 100
// messages at most, scoped to the session's application; every bad input a 422 naming it, and a
// search too broad to answer in time a 422 rather than a long scan.

const DAY = 24 * 3600_000;

describe("portal payload search", () => {
  let t: Tenant;
  let portal: PortalClient;
  let appId: string;
  let ep: string;
  const byName: Record<string, { msgId: string; deliveryId: string }> = {};

  async function seed(name: string, payload: unknown, opts: { at?: Date; status?: "succeeded" | "failed"; app?: string; endpoint?: string } = {}) {
    const at = opts.at ?? new Date();
    const app = opts.app ?? appId;
    const msgId = newId("message", at.getTime());
    await t.db.message.create({
      data: { id: msgId, environmentId: t.environmentId, applicationId: app, eventType: "order.paid", payload: payload as object, channels: [], createdAt: at },
    });
    const status = opts.status ?? "succeeded";
    const d = await seedDelivery(t, {
      appId: app,
      endpointId: opts.endpoint ?? ep,
      messageId: msgId,
      eventType: "order.paid",
      status,
      attempts: [{ ok: status === "succeeded", code: status === "succeeded" ? 200 : 500, at }],
      at,
    });
    byName[name] = { msgId, deliveryId: d.id };
  }

  beforeAll(async () => {
    t = await createTenant("portal-payload");
    appId = (await t.api("POST", "/app", { name: "Payloads" })).body.id;
    await t.api("POST", "/event-type", { name: "order.paid", description: "paid" });
    ep = (await t.api("POST", `/app/${appId}/endpoint`, { url: "https://hooks.example.com/p", disabled: true })).body.id;
    await seed("ana", { order: "ord_A1", customer: { email: "Ana.Lima@example.com" } }, { at: new Date(Date.now() - 60_000) });
    await seed("ana-failed", { order: "ord_A2", customer: { email: "ana.lima@example.com" } }, { status: "failed", at: new Date(Date.now() - 120_000) });
    await seed("bob", { order: "ord_B1", customer: { email: "bob@example.com" } });
    await seed("ana-old", { order: "ord_A0", customer: { email: "ana.lima@example.com" } }, { at: new Date(Date.now() - 10 * DAY) });
    await seed("percent", { note: "100% refunded" });
    portal = await portalSession(t, appId);
  });

  const search = (query: string) => portal.api("GET", `/portal/app/${appId}/delivery?limit=100&${query}`);
  const ids = (r: { body: { data: { id: string }[] } }) => r.body.data.map((d) => d.id);

  it("finds the deliveries of messages whose payload contains the text, in any case, within the last 7 days", async () => {
    const r = await search("payload=ana.lima");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(ids(r)).toEqual([byName.ana!.deliveryId, byName["ana-failed"]!.deliveryId]);
    expect(r.body.search).toEqual({ messages: 2, limited: false });
    expect(ids(await search("payload=ORD_B1"))).toEqual([byName.bob!.deliveryId]);
    expect(ids(await search("payload=nobody-has-this"))).toEqual([]);
  });

  it("searches an older week when after/before say so", async () => {
    const after = new Date(Date.now() - 12 * DAY).toISOString();
    const before = new Date(Date.now() - 6 * DAY).toISOString();
    expect(ids(await search(`payload=ana.lima&after=${after}&before=${before}`))).toEqual([byName["ana-old"]!.deliveryId]);
  });

  it("combines with the status filter and the id search", async () => {
    expect(ids(await search("payload=ana.lima&status=dead_lettered"))).toEqual([byName["ana-failed"]!.deliveryId]);
    expect(ids(await search(`payload=ana.lima&search=${byName.ana!.msgId}`))).toEqual([byName.ana!.deliveryId]);
    expect(ids(await search(`payload=bob@&search=${byName.ana!.msgId}`))).toEqual([]);
  });

  it("treats % and _ as text", async () => {
    expect(ids(await search(`payload=${encodeURIComponent("100%")}`))).toEqual([byName.percent!.deliveryId]);
    expect(ids(await search(`payload=${encodeURIComponent("a%a")}`))).toEqual([]);
    expect(ids(await search(`payload=${encodeURIComponent("ord_")}`)).length).toBe(3);
  });

  it("never searches another application's payloads", async () => {
    const other = (await t.api("POST", "/app", { name: "Other payloads" })).body.id;
    const otherEp = (await t.api("POST", `/app/${other}/endpoint`, { url: "https://hooks.example.com/o", disabled: true })).body.id;
    await seed("elsewhere", { customer: { email: "ana.lima@example.com" } }, { app: other, endpoint: otherEp });
    expect(ids(await search("payload=ana.lima"))).not.toContain(byName.elsewhere!.deliveryId);
    expect(ids(await search("payload=ana.lima")).length).toBe(2);
  });

  it("refuses a term under 3 characters, an overlong one and a window over 7 days with 422s naming them", async () => {
    const short = await search("payload=an");
    expect(short.status).toBe(422);
    expect(short.body.detail[0].loc).toEqual(["query", "payload"]);
    expect(short.body.detail[0].msg).toMatch(/at least 3 characters/);
    const long = await search(`payload=${"x".repeat(201)}`);
    expect(long.status).toBe(422);
    expect(long.body.detail[0].msg).toMatch(/at most 200/);
    const wide = await search(`payload=ana.lima&after=${new Date(Date.now() - 8 * DAY).toISOString()}`);
    expect(wide.status).toBe(422);
    expect(wide.body.detail[0].loc).toEqual(["query", "after"]);
    expect(wide.body.detail[0].msg).toMatch(/at most 7 days/);
  });

  it("shows the newest 100 matching messages and says more matched", async () => {
    const many = (await t.api("POST", "/app", { name: "Many payloads" })).body.id;
    const manyEp = (await t.api("POST", `/app/${many}/endpoint`, { url: "https://hooks.example.com/m", disabled: true })).body.id;
    for (let i = 0; i < 105; i++) await seed(`many-${i}`, { tag: "bulk-import", i }, { app: many, endpoint: manyEp, at: new Date(Date.now() - (200 - i) * 1000) });
    const manyPortal = await portalSession(t, many);
    const r = await manyPortal.api("GET", `/portal/app/${many}/delivery?limit=250&payload=bulk-import`);
    expect(r.status).toBe(200);
    expect(r.body.search).toEqual({ messages: 100, limited: true });
    expect(r.body.data).toHaveLength(100);
    expect(r.body.data[0].id).toBe(byName["many-104"]!.deliveryId);
  });

  it("answers a search that cannot finish within the statement timeout with a 422, not a long scan", async () => {
    // Every payload has the term's trigrams but none the term: the index hands every row to the
    // recheck, which takes far longer than 1 ms.
    const slow = (await t.api("POST", "/app", { name: "Slow payloads" })).body.id;
    const rows = Array.from({ length: 20_000 }, (_, i) => newId("message", Date.now() - 60_000 + i));
    await t.db.$executeRaw`
      INSERT INTO message (id, environment_id, application_id, event_type, payload, channels)
      SELECT id, ${t.environmentId}, ${slow}, 'order.paid', jsonb_build_object('text', repeat('abc bcx cxy xyz ', 40)), '{}'
      FROM unnest(${rows}::text[]) AS id`;
    const err = await messagesByPayload(slow, { term: "abcxyz" }, 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).items[0]!.msg).toMatch(/too broad/);
    // With the real timeout it answers (no match), and the timeout did not stay on the connection.
    expect(await messagesByPayload(slow, { term: "abcxyz" })).toEqual({ ids: [], limited: false });
  });
});
