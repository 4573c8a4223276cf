import type { DeliveryStatus, PrismaClient } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";

// Past traffic written straight to the database (messages, their deliveries and attempts, at
// chosen times): what replay, bulk-retry and export tasks work on. Real rows in the real schema;
// only the history is made up, so a test does not have to wait for thousands of real deliveries.

export type SeedOptions = {
  environmentId: string;
  applicationId: string;
  eventType: string;
  count: number;
  /** Creation time of the first message; each next one is 1 ms later. */
  startAt: Date;
  channels?: string[];
  /** One delivery per message to this endpoint, with this status (and, if failed, this last status code). */
  delivery?: {
    endpointId: string;
    status: DeliveryStatus | ((i: number) => DeliveryStatus);
    lastStatusCode?: (i: number) => number | null;
  };
  /** One attempt per delivery, with this response status. */
  attempts?: { url: string; responseStatus: (i: number) => number };
};

export async function seedHistory(db: PrismaClient, o: SeedOptions) {
  const messageIds: string[] = [];
  const deliveryIds: string[] = [];
  const CHUNK = 2_000;
  for (let from = 0; from < o.count; from += CHUNK) {
    const idx = Array.from({ length: Math.min(CHUNK, o.count - from) }, (_, k) => from + k);
    const at = (i: number) => new Date(o.startAt.getTime() + i);
    const msgs = idx.map((i) => ({
      id: newId("message", at(i).getTime()),
      environmentId: o.environmentId,
      applicationId: o.applicationId,
      eventType: o.eventType,
      payload: { seq: i },
      channels: o.channels ?? [],
      createdAt: at(i),
    }));
    await db.message.createMany({ data: msgs });
    messageIds.push(...msgs.map((m) => m.id));
    const d = o.delivery;
    if (!d) continue;
    const dls = idx.map((i, k) => {
      const status = typeof d.status === "function" ? d.status(i) : d.status;
      return {
        id: newId("delivery", at(i).getTime()),
        environmentId: o.environmentId,
        applicationId: o.applicationId,
        endpointId: d.endpointId,
        messageId: msgs[k]!.id,
        eventType: o.eventType,
        status,
        attemptCount: 1,
        lastStatusCode: d.lastStatusCode?.(i) ?? null,
        lastAttemptAt: at(i),
        deadReason: status === "failed" ? "exhausted" : null,
        deadAt: status === "failed" ? at(i) : null,
        createdAt: at(i),
        updatedAt: at(i),
      };
    });
    await db.delivery.createMany({ data: dls });
    deliveryIds.push(...dls.map((x) => x.id));
    const a = o.attempts;
    if (!a) continue;
    await db.attempt.createMany({
      data: idx.map((i, k) => {
        const code = a.responseStatus(i);
        return {
          id: newId("attempt", at(i).getTime()),
          environmentId: o.environmentId,
          applicationId: o.applicationId,
          endpointId: d.endpointId,
          messageId: msgs[k]!.id,
          deliveryId: dls[k]!.id,
          eventType: o.eventType,
          url: a.url,
          status: code >= 200 && code < 300 ? ("success" as const) : ("fail" as const),
          requestHeaders: { "content-type": "application/json" },
          requestBody: JSON.stringify({ seq: i }),
          responseStatus: code,
          responseBody: code === 0 ? null : `answer ${i}`,
          durationMs: 3,
          errorClass: code === 0 ? "refused" : code >= 300 ? "http_status" : null,
          createdAt: at(i),
        };
      }),
    });
  }
  return { messageIds, deliveryIds };
}
