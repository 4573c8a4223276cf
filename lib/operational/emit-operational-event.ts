import { db } from "../db";
import { newId } from "../ids";
import { logger } from "../logger";
import { Prisma } from "../generated/prisma/client";
import { enqueueDeliveries } from "../delivery/enqueue-deliveries";
import { endpointWants } from "../messages/match-endpoints";
import { findOperationalApp } from "./operational-app";

// Sends an operational event to the environment's operational endpoints that want it: a message
// in the internal application and one delivery per endpoint, delivered (signed, retried, recorded)
// by the normal engine. Nothing is stored when no endpoint wants the event. Any event type may be
// emitted (e.g. background_task.finished from the task runner).

export const OPERATIONAL_RETENTION_DAYS = 30;

export async function emitOperationalEvent(
  environmentId: string,
  eventType: string,
  data: Record<string, unknown>,
): Promise<{ messageId: string; deliveries: number } | null> {
  const app = await findOperationalApp(environmentId);
  if (!app) return null;
  const endpoints = await db.endpoint.findMany({
    where: { applicationId: app.id, state: "active" },
    select: { id: true, state: true, eventTypes: true, channels: true },
  });
  const targets = endpoints.filter((ep) => endpointWants({ ...ep, channels: [] }, { eventType, channels: [] }));
  if (targets.length === 0) return null;

  const messageId = newId("message");
  const now = new Date();
  const deliveries = targets.map((ep) => ({
    id: newId("delivery"),
    environmentId,
    applicationId: app.id,
    endpointId: ep.id,
    messageId,
    eventType,
    status: "pending" as const,
    nextAttemptAt: now,
  }));
  await db.$transaction([
    db.message.create({
      data: {
        id: messageId,
        environmentId,
        applicationId: app.id,
        eventType,
        payload: data as Prisma.InputJsonValue,
        channels: [],
        payloadRetentionDays: OPERATIONAL_RETENTION_DAYS,
        createdAt: now,
      },
    }),
    db.delivery.createMany({ data: deliveries }),
  ]);
  await enqueueDeliveries(deliveries.map((d) => ({ id: d.id })));
  return { messageId, deliveries: deliveries.length };
}

/** Fire-and-forget variant for side paths: an operational webhook must never fail the caller. */
export function emitOperationalEventSafely(
  environmentId: string,
  eventType: string,
  data: Record<string, unknown>,
): Promise<void> {
  return emitOperationalEvent(environmentId, eventType, data).then(
    () => undefined,
    (err: unknown) => logger.warn({ err, environmentId, eventType }, "could not emit operational event"),
  );
}
