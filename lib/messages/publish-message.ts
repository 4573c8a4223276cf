import { db } from "../db";
import { conflict, invalid, notFound } from "../http/errors";
import { hasPrefix, newId } from "../ids";
import { Prisma, type Message } from "../generated/prisma/client";
import type { Scope } from "../auth/principal";
import { createApplication } from "../applications/manage-applications";
import { enqueueDeliveries } from "../delivery/enqueue-deliveries";
import { storeMessageForApplication, storeMessage, type PublishTarget } from "./fan-out-message";
import type { MessageIn } from "./schemas";
import { AnswerNotRecorded, type AnswerRecord } from "../http/idempotency";
import { serializeMessage, type MessageFields } from "./serialize";

// POST /app/{app}/msg: validate, store the message and one delivery per matching endpoint
// atomically (one statement, fan-out-message.ts), then enqueue. A crash between commit and enqueue loses nothing: the
// sweeper enqueues due deliveries that are not in Redis.

export const PAYLOAD_WARN_BYTES = 20 * 1024;

type PublishOptions = {
  /** Only these endpoints (send-example, replay to one endpoint); default: every matching one. */
  endpointIds?: string[];
  replayOfId?: string;
  /**
   * The idempotency record of the answer to this publish (lib/http/route.ts `recordsAnswer`),
   * stored by the same statement as the message. When that statement stores nothing (the key is
   * taken, or an error to answer), AnswerNotRecorded is thrown and the route claims the key first.
   */
  record?: (published: Published) => AnswerRecord;
};

/** What the answer to a publish is made of: known before anything is stored. */
type Published = { message: MessageFields; warnings: string[] };

/**
 * The application named in the path does not exist: with `application` in the body (Svix's
 * create-if-missing) it is created, under the path's uid. A concurrent publish may have just
 * created it: `getIfExists` then returns that one.
 */
async function createTargetApp(scope: Scope, appIdOrUid: string, input: MessageIn) {
  if (!input.application || scope.applicationId || hasPrefix(appIdOrUid, "application")) throw notFound("Application");
  const { app } = await createApplication(scope, { ...input.application, uid: input.application.uid ?? appIdOrUid }, true);
  return app;
}

async function checkEventType(scope: Scope, name: string) {
  const et = await db.eventType.findUnique({
    where: { environmentId_name: { environmentId: scope.environmentId, name } },
    select: { archived: true },
  });
  checkEventTypeState(name, et ? (et.archived ? "archived" : "ok") : null);
}

function checkEventTypeState(name: string, state: PublishTarget["eventType"]) {
  if (state === null)
    throw invalid(["body", "eventType"], `event type ${name} is not in the catalog; create it first (POST /api/v1/event-type)`);
  if (state === "archived") throw invalid(["body", "eventType"], `event type ${name} is archived; un-archive it to publish`);
}

export async function publishMessage(scope: Scope, appIdOrUid: string, input: MessageIn, opts: PublishOptions = {}) {
  const channels = input.channels ?? [];
  const fields = {
    id: newId("message"),
    environmentId: scope.environmentId,
    eventType: input.eventType,
    eventId: input.eventId ?? null,
    payload: input.payload as Prisma.JsonValue,
    previous: (input.previous ?? null) as Prisma.JsonValue,
    channels,
    payloadRetentionDays: input.payloadRetentionPeriod,
    replayOfId: opts.replayOfId ?? null,
    createdAt: new Date(),
    addressedTo: opts.endpointIds ?? [],
  };
  const warnings = payloadWarnings(input.payload);
  const record = opts.record?.({ message: fields, warnings }) ?? null;
  // The application, the event type, the endpoints, the eventId claim, the message, its
  // deliveries and the idempotency record: usually one statement, so all or nothing, and one round
  // trip on the API's hottest path.
  const only = opts.endpointIds ?? null;
  let { target, deliveryIds } = await storeMessageForApplication(fields, appIdOrUid, scope.applicationId ?? null, only, record);
  // Not stored with its record (the key was taken; or no such application, the event type, the
  // eventId, many endpoints): a retry of a publish that was answered must be replayed, so the
  // key's claim comes first, as on every route.
  if (record && !deliveryIds) throw new AnswerNotRecorded();
  if (target) checkEventTypeState(input.eventType, target.eventType);
  else {
    // The event type first: a rejected message must not leave an auto-created application behind.
    await checkEventType(scope, input.eventType);
    const app = await createTargetApp(scope, appIdOrUid, input);
    target = { applicationId: app.id, eventType: "ok", endpointIds: [] };
    deliveryIds = await storeMessage({ ...fields, applicationId: app.id }, []);
  }
  const message: Message = { ...fields, applicationId: target.applicationId, taskId: null };
  if (!deliveryIds) {
    const prior = await db.eventIdClaim.findUnique({
      where: { environmentId_eventId: { environmentId: message.environmentId, eventId: input.eventId ?? "" } },
    });
    throw conflict(
      `A message with eventId ${input.eventId} was already published in the last 24 hours (${prior?.messageId ?? "unknown"})`,
    );
  }

  const endpointIds = target.endpointIds;
  await enqueueDeliveries(deliveryIds.map((id, i) => ({ id, endpointId: endpointIds[i] })));
  return { message, deliveries: deliveryIds.length, warnings };
}

function payloadWarnings(payload: unknown): string[] {
  const size = Buffer.byteLength(JSON.stringify(payload));
  return size > PAYLOAD_WARN_BYTES
    ? [`payload is ${Math.round(size / 1024)} KiB; keep webhook payloads under 20 KiB (send ids, let receivers fetch the rest)`]
    : [];
}

export function publishResponse(result: Published, withContent: boolean) {
  const out = serializeMessage(result.message, withContent);
  return result.warnings.length > 0 ? { ...out, warnings: result.warnings } : out;
}
