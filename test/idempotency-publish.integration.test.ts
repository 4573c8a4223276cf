import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { sha256Hex } from "@/lib/crypto/tokens";
import { IDEMPOTENCY_TTL_MS } from "@/lib/http/idempotency";
import { createTenant, type Tenant } from "./helpers/tenant";

// A publish with an idempotency-key stores its answer in the statement that stores the message
// (lib/http/route.ts `recordsAnswer`), and goes through the key's claim whenever that statement
// stores nothing. What a caller relies on either way: a retry of an answered publish is that
// answer again, whatever changed since (its eventId is taken by its own message, its event type was
// archived), one message is stored however the request travels, and a key past its 24 h is free.

describe("a publish records its idempotent answer with the message", () => {
  let t: Tenant;
  let app: string;

  beforeAll(async () => {
    t = await createTenant("idempotency-publish");
    app = (await t.api("POST", "/app", { name: "Idem publish" })).body.id;
    for (const name of ["order.paid", "order.shipped"]) await t.api("POST", "/event-type", { name, description: name });
  });

  const publish = (body: unknown, key: string) => t.api("POST", `/app/${app}/msg`, body, { "idempotency-key": key });
  const messagesOf = (appId: string) => db.message.count({ where: { applicationId: appId } });

  it("stores the answer, sealed, by the time the publish is answered", async () => {
    const res = await publish({ eventType: "order.paid", payload: { n: "sealed-check" } }, "recorded");
    expect(res.status).toBe(202);
    const record = await db.idempotencyRecord.findUnique({
      where: { environmentId_key: { environmentId: t.environmentId, key: "recorded" } },
    });
    expect(record?.responseStatus).toBe(202);
    expect(record?.responseSealed).toBeTruthy();
    expect(record?.responseSealed).not.toContain(res.body.id);
    expect(record?.responseSealed).not.toContain("sealed-check");
    const again = await publish({ eventType: "order.paid", payload: { n: "sealed-check" } }, "recorded");
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(res.body);
  });

  it("a retry whose eventId its first try took is the first answer, not a duplicate eventId", async () => {
    const body = { eventType: "order.paid", eventId: "evt-retried", payload: { n: 1 } };
    const first = await publish(body, "with-event-id");
    const retry = await publish(body, "with-event-id");
    expect([first.status, retry.status]).toEqual([202, 202]);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    // Another key with the same eventId is still the duplicate it is.
    const other = await publish(body, "another-key");
    expect(other.status).toBe(409);
    expect(other.body.detail).toContain(first.body.id);
  });

  it("a retry after its event type was archived is the first answer, not a 422", async () => {
    const body = { eventType: "order.shipped", payload: { n: 2 } };
    const first = await publish(body, "before-archive");
    expect(first.status).toBe(202);
    expect((await t.api("DELETE", "/event-type/order.shipped")).status).toBe(204);
    const retry = await publish(body, "before-archive");
    expect(retry.status).toBe(202);
    expect(retry.body.id).toBe(first.body.id);
    expect((await publish(body, "after-archive")).status).toBe(422);
  });

  it("an application with more endpoints than the one statement takes: one message, all deliveries, replayed", async () => {
    const wide = (await t.api("POST", "/app", { name: "Wide" })).body.id as string;
    for (let i = 0; i < 20; i++) await t.api("POST", `/app/${wide}/endpoint`, { url: `https://hooks.example.com/${i}` });
    const body = { eventType: "order.paid", payload: { n: 3 } };
    const first = await t.api("POST", `/app/${wide}/msg`, body, { "idempotency-key": "wide" });
    const retry = await t.api("POST", `/app/${wide}/msg`, body, { "idempotency-key": "wide" });
    expect([first.status, retry.status]).toEqual([202, 202]);
    expect(retry.body.id).toBe(first.body.id);
    expect(await messagesOf(wide)).toBe(1);
    expect(await db.delivery.count({ where: { messageId: first.body.id } })).toBe(20);
  });

  it("a failed publish leaves its key free; a key past its 24 h is taken by a new publish", async () => {
    const failed = await publish({ eventType: "no.such.type", payload: {} }, "fixed-later");
    expect(failed.status).toBe(422);
    expect((await publish({ eventType: "order.paid", payload: { n: 4 } }, "fixed-later")).status).toBe(202);

    // Yesterday's record of another request under the same key.
    await db.$executeRaw`INSERT INTO idempotency_record (environment_id, key, request_hash, response_status, response_sealed, created_at)
      VALUES (${t.environmentId}, 'expired', ${sha256Hex("another request")}, 202, NULL,
              now() - make_interval(secs => ${IDEMPOTENCY_TTL_MS / 1000 + 60}))`;
    const before = await messagesOf(app);
    const fresh = await publish({ eventType: "order.paid", payload: { n: 5 } }, "expired");
    expect(fresh.status).toBe(202);
    expect(fresh.headers.get("idempotent-replayed")).toBeNull();
    expect(await messagesOf(app)).toBe(before + 1);
    const replay = await publish({ eventType: "order.paid", payload: { n: 5 } }, "expired");
    expect(replay.body.id).toBe(fresh.body.id);
  });

  it("eight copies of one request at once store one message, and every copy is answered with it or told to wait", async () => {
    const solo = (await t.api("POST", "/app", { name: "Racing" })).body.id as string;
    const body = { eventType: "order.paid", payload: { n: 6 } };
    const racing = await Promise.all(
      Array.from({ length: 8 }, () => t.api("POST", `/app/${solo}/msg`, body, { "idempotency-key": "raced" })),
    );
    expect(racing.filter((r) => r.status !== 202 && r.status !== 409).map((r) => `${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
    const accepted = racing.filter((r) => r.status === 202);
    expect(accepted.length).toBeGreaterThan(0);
    expect(new Set(accepted.map((r) => r.body.id)).size).toBe(1);
    expect(await messagesOf(solo)).toBe(1);
  });
});
