import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/ids";
import { cleanupExpired } from "@/lib/delivery/cleanup-expired";
import { createTenant, type Tenant } from "./helpers/tenant";

// The worker's periodic clean-up, run directly against rows of every kind it looks after, some
// past their retention and some not.

const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe("clean-up of expired data", () => {
  let t: Tenant;
  let appId: string;
  let endpointId: string;

  beforeAll(async () => {
    t = await createTenant("cleanup");
    appId = (await t.api("POST", "/app", { name: "Cleanup" })).body.id;
    expect((await t.api("POST", "/event-type", { name: "order.paid", description: "d" })).status).toBe(201);
    endpointId = (await t.api("POST", `/app/${appId}/endpoint`, { url: "https://example.com/hook" })).body.id;
  });

  async function messageWithDelivery(
    at: number,
    retentionDays: number,
    delivery: { status: "failed" | "succeeded"; deadAt?: Date },
  ) {
    const msgId = newId("message", at);
    const dlvId = newId("delivery", at);
    await t.db.message.create({
      data: {
        id: msgId,
        environmentId: t.environmentId,
        applicationId: appId,
        eventType: "order.paid",
        payload: { secret: "data" },
        channels: [],
        payloadRetentionDays: retentionDays,
        createdAt: new Date(at),
      },
    });
    await t.db.delivery.create({
      data: {
        id: dlvId,
        environmentId: t.environmentId,
        applicationId: appId,
        endpointId,
        messageId: msgId,
        eventType: "order.paid",
        status: delivery.status,
        deadAt: delivery.deadAt ?? null,
        deadReason: delivery.deadAt ? "exhausted" : null,
      },
    });
    await t.db.attempt.create({
      data: {
        id: newId("attempt", at),
        environmentId: t.environmentId,
        applicationId: appId,
        endpointId,
        messageId: msgId,
        deliveryId: dlvId,
        eventType: "order.paid",
        url: "https://example.com/hook",
        status: delivery.status === "failed" ? "fail" : "success",
        requestHeaders: {},
        requestBody: '{"secret":"data"}',
        responseStatus: 500,
        responseBody: "oops",
        durationMs: 5,
        createdAt: new Date(at),
      },
    });
    return { msgId, dlvId };
  }

  it("drops idempotency records and eventId claims after 24 h, expired portal sessions after a day", async () => {
    const env = t.environmentId;
    const old = new Date(Date.now() - 25 * HOUR);
    await t.db.idempotencyRecord.createMany({
      data: [
        { environmentId: env, key: "old", requestHash: "h", createdAt: old },
        { environmentId: env, key: "fresh", requestHash: "h" },
      ],
    });
    await t.db.eventIdClaim.createMany({
      data: [
        { environmentId: env, eventId: "old", messageId: "msg_x", createdAt: old },
        { environmentId: env, eventId: "fresh", messageId: "msg_y" },
      ],
    });
    const token = await t.db.portalToken.create({
      data: {
        id: newId("portalToken"),
        applicationId: appId,
        hash: newId("portalToken"),
        expiresAt: new Date(Date.now() + DAY),
      },
    });
    await t.db.portalSession.createMany({
      data: [
        {
          id: newId("portalSession"),
          tokenId: token.id,
          applicationId: appId,
          hash: newId("portalSession"),
          expiresAt: new Date(Date.now() - 2 * DAY),
        },
        {
          id: newId("portalSession"),
          tokenId: token.id,
          applicationId: appId,
          hash: newId("portalSession"),
          expiresAt: new Date(Date.now() - HOUR),
        },
      ],
    });

    const counts = await cleanupExpired({ deadLetterRetentionDays: 30 });
    expect(counts.idempotencyRecords).toBeGreaterThanOrEqual(1);
    expect((await t.db.idempotencyRecord.findMany({ where: { environmentId: env } })).map((r) => r.key)).toEqual([
      "fresh",
    ]);
    expect((await t.db.eventIdClaim.findMany({ where: { environmentId: env } })).map((r) => r.eventId)).toEqual([
      "fresh",
    ]);
    // The session that expired an hour ago stays a while, so the portal can still say "expired".
    expect(await t.db.portalSession.count({ where: { applicationId: appId } })).toBe(1);
  });

  it("keeps a dead letter's full context for the retention period, then drops the attempt bodies", async () => {
    const recent = await messageWithDelivery(Date.now() - 20 * DAY, 90, {
      status: "failed",
      deadAt: new Date(Date.now() - 20 * DAY),
    });
    const expired = await messageWithDelivery(Date.now() - 31 * DAY, 90, {
      status: "failed",
      deadAt: new Date(Date.now() - 31 * DAY),
    });
    await cleanupExpired({ deadLetterRetentionDays: 30 });
    const a = (dlvId: string) => t.db.attempt.findFirstOrThrow({ where: { deliveryId: dlvId } });
    expect(await a(recent.dlvId)).toMatchObject({ requestBody: '{"secret":"data"}', responseBody: "oops" });
    expect(await a(expired.dlvId)).toMatchObject({
      requestBody: null,
      responseBody: null,
      responseStatus: 500,
      status: "fail",
    });
    expect(await t.db.delivery.findUniqueOrThrow({ where: { id: expired.dlvId } })).toMatchObject({ status: "failed" });
    // A shorter retention (HERALD_DEAD_LETTER_RETENTION_DAYS=10) takes the 20-day-old one too.
    await cleanupExpired({ deadLetterRetentionDays: 10 });
    expect(await a(recent.dlvId)).toMatchObject({ requestBody: null, responseBody: null, responseStatus: 500 });
  });

  it("expunges message payloads past the message's own retention, with the request bodies that carried them", async () => {
    const keep = await messageWithDelivery(Date.now() - 6 * DAY, 30, { status: "succeeded" });
    const drop = await messageWithDelivery(Date.now() - 6 * DAY, 5, { status: "succeeded" });
    await cleanupExpired({ deadLetterRetentionDays: 30 });
    expect((await t.db.message.findUniqueOrThrow({ where: { id: keep.msgId } })).payload).toEqual({ secret: "data" });
    expect((await t.db.message.findUniqueOrThrow({ where: { id: drop.msgId } })).payload).toBeNull();
    expect((await t.db.attempt.findFirstOrThrow({ where: { messageId: drop.msgId } })).requestBody).toBeNull();
    expect((await t.db.attempt.findFirstOrThrow({ where: { messageId: keep.msgId } })).requestBody).toBe(
      '{"secret":"data"}',
    );
  });
});
