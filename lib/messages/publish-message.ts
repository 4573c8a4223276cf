import { db } from "../db";
import { conflict, invalid, notFound } from "../http/errors";
import { hasPrefix, newId } from "../ids";
import { Prisma, type Application, type Message } from "../generated/prisma/client";
import type { Scope } from "../auth/principal";
import { createApplication } from "../applications/manage-applications";
import { enqueueDeliveries } from "../delivery/enqueue-deliveries";
import { endpointWants } from "./match-endpoints";
import type { MessageIn } from "./schemas";
import { serializeMessage } from "./serialize";

// POST /app/{app}/msg: validate, store the message and one delivery per matching endpoint in
// one transaction, then enqueue. A crash between commit and enqueue loses nothing: the
// sweeper enqueues due deliveries that are not in Redis.

export const EVENT_ID_WINDOW_MS = 24 * 60 * 60 * 1000;
export const PAYLOAD_WARN_BYTES = 20 * 1024;

type PublishOptions = {
  /** Only these endpoints (send-example, replay to one endpoint); default: every matching one. */
  endpointIds?: string[];
  replayOfId?: string;
};

async function resolveTargetApp(scope: Scope, appIdOrUid: string, input: MessageIn): Promise<Application> {
  const app = await db.application.findFirst({
    where: {
      environmentId: scope.environmentId,
      internal: false,
      OR: [{ id: appIdOrUid }, { uid: appIdOrUid }],
      ...(scope.applicationId ? { id: scope.applicationId } : {}),
    },
  });
  if (app) return app;
  if (!input.application || scope.applicationId || hasPrefix(appIdOrUid, "application")) throw notFound("Application");
  await createApplication(scope, { ...input.application, uid: input.application.uid ?? appIdOrUid }, true);
  return db.application.findFirstOrThrow({ where: { environmentId: scope.environmentId, uid: input.application.uid ?? appIdOrUid } });
}

async function checkEventType(scope: Scope, name: string) {
  const et = await db.eventType.findUnique({
    where: { environmentId_name: { environmentId: scope.environmentId, name } },
    select: { archived: true },
  });
  if (!et)
    throw invalid(["body", "eventType"], `event type ${name} is not in the catalog; create it first (POST /api/v1/event-type)`);
  if (et.archived) throw invalid(["body", "eventType"], `event type ${name} is archived; un-archive it to publish`);
}

export async function publishMessage(scope: Scope, appIdOrUid: string, input: MessageIn, opts: PublishOptions = {}) {
  // The event type first: a rejected message must not leave an auto-created application behind.
  await checkEventType(scope, input.eventType);
  const app = await resolveTargetApp(scope, appIdOrUid, input);

  const channels = input.channels ?? [];
  const endpoints = await db.endpoint.findMany({
    where: { applicationId: app.id, state: "active", ...(opts.endpointIds ? { id: { in: opts.endpointIds } } : {}) },
    select: { id: true, state: true, eventTypes: true, channels: true },
  });
  const targets = opts.endpointIds ? endpoints : endpoints.filter((ep) => endpointWants(ep, { eventType: input.eventType, channels }));

  const messageId = newId("message");
  const now = new Date();
  const deliveries = targets.map((ep) => ({
    id: newId("delivery"),
    environmentId: app.environmentId,
    applicationId: app.id,
    endpointId: ep.id,
    messageId,
    eventType: input.eventType,
    status: "pending" as const,
    nextAttemptAt: now,
  }));
  const messageData: Prisma.MessageUncheckedCreateInput = {
    id: messageId,
    environmentId: app.environmentId,
    applicationId: app.id,
    eventType: input.eventType,
    eventId: input.eventId ?? null,
    payload: input.payload as Prisma.InputJsonValue,
    previous: (input.previous ?? undefined) as Prisma.InputJsonValue | undefined,
    channels,
    payloadRetentionDays: input.payloadRetentionPeriod,
    replayOfId: opts.replayOfId ?? null,
    createdAt: now,
  };

  let message: Message;
  if (input.eventId) {
    message = await db.$transaction(async (tx) => {
      await claimEventId(tx, app.environmentId, input.eventId!, messageId);
      const m = await tx.message.create({ data: messageData });
      await tx.delivery.createMany({ data: deliveries });
      return m;
    });
  } else {
    // No conditional step: a batched transaction saves the interactive round trips.
    [message] = await db.$transaction([
      db.message.create({ data: messageData }),
      db.delivery.createMany({ data: deliveries }),
    ]);
  }

  await enqueueDeliveries(deliveries.map((d) => ({ id: d.id })));

  const size = Buffer.byteLength(JSON.stringify(input.payload));
  const warnings =
    size > PAYLOAD_WARN_BYTES
      ? [`payload is ${Math.round(size / 1024)} KiB; keep webhook payloads under 20 KiB (send ids, let receivers fetch the rest)`]
      : [];
  return { message, deliveries: deliveries.length, warnings };
}

async function claimEventId(tx: Prisma.TransactionClient, environmentId: string, eventId: string, messageId: string) {
  const staleBefore = new Date(Date.now() - EVENT_ID_WINDOW_MS);
  const claimed = await tx.$queryRaw<{ message_id: string }[]>`
    INSERT INTO event_id_claim (environment_id, event_id, message_id, created_at)
    VALUES (${environmentId}, ${eventId}, ${messageId}, now())
    ON CONFLICT (environment_id, event_id) DO UPDATE
      SET message_id = EXCLUDED.message_id, created_at = now()
      WHERE event_id_claim.created_at < ${staleBefore}
    RETURNING message_id`;
  if (claimed.length === 0) {
    const prior = await tx.eventIdClaim.findUnique({ where: { environmentId_eventId: { environmentId, eventId } } });
    throw conflict(`A message with eventId ${eventId} was already published in the last 24 hours (${prior?.messageId ?? "unknown"})`);
  }
}

export function publishResponse(result: Awaited<ReturnType<typeof publishMessage>>, withContent: boolean) {
  const out = serializeMessage(result.message, withContent);
  return result.warnings.length > 0 ? { ...out, warnings: result.warnings } : out;
}
