import { db } from "../db";
import { conflict, invalid, notFound } from "../http/errors";
import { hasPrefix, newId } from "../ids";
import { Prisma, type Message } from "../generated/prisma/client";
import type { Scope } from "../auth/principal";
import { createApplication } from "../applications/manage-applications";
import { enqueueDeliveries } from "../delivery/enqueue-deliveries";
import { query } from "../sql";
import { endpointWantsSql, storeMessage } from "./fan-out-message";
import type { MessageIn } from "./schemas";
import { serializeMessage } from "./serialize";

// POST /app/{app}/msg: validate, store the message and one delivery per matching endpoint
// atomically (one statement, fan-out-message.ts), then enqueue. A crash between commit and enqueue loses nothing: the
// sweeper enqueues due deliveries that are not in Redis.

export const PAYLOAD_WARN_BYTES = 20 * 1024;

type PublishOptions = {
  /** Only these endpoints (send-example, replay to one endpoint); default: every matching one. */
  endpointIds?: string[];
  replayOfId?: string;
};

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

type Target = { applicationId: string; environmentId: string; eventType: "ok" | "archived" | null; endpointIds: string[] };

/**
 * The application, the event type's state and the endpoints to deliver to, in one round trip:
 * publish is the hottest path of the API, so it talks to PostgreSQL through node-postgres
 * (prepared statements) rather than paying Prisma's per-query cost several times.
 */
async function findTarget(scope: Scope, appIdOrUid: string, eventType: string, channels: string[], only?: string[]) {
  const [row] = await query<{ application_id: string; environment_id: string; event_type: "ok" | "archived" | null; endpoint_ids: string[] }>(
    "publish_target",
    `SELECT a.id AS application_id, a.environment_id,
       (SELECT CASE WHEN et.archived THEN 'archived' ELSE 'ok' END FROM event_type et
         WHERE et.environment_id = $1 AND et.name = $3) AS event_type,
       COALESCE((SELECT array_agg(e.id ORDER BY e.id) FROM endpoint e
         WHERE e.application_id = a.id
           AND CASE WHEN $6::text[] IS NOT NULL THEN e.state = 'active' AND e.id = ANY($6::text[])
                ELSE ${endpointWantsSql("$3", "$4::text[]")} END), '{}') AS endpoint_ids
     FROM application a
     WHERE a.environment_id = $1 AND a.internal = false AND (a.id = $2 OR a.uid = $2)
       AND ($5::text IS NULL OR a.id = $5)
     LIMIT 1`,
    [scope.environmentId, appIdOrUid, eventType, channels, scope.applicationId ?? null, only ?? null],
  );
  return row
    ? { applicationId: row.application_id, environmentId: row.environment_id, eventType: row.event_type, endpointIds: row.endpoint_ids }
    : null;
}

function checkEventTypeState(name: string, state: Target["eventType"]) {
  if (state === null)
    throw invalid(["body", "eventType"], `event type ${name} is not in the catalog; create it first (POST /api/v1/event-type)`);
  if (state === "archived") throw invalid(["body", "eventType"], `event type ${name} is archived; un-archive it to publish`);
}

export async function publishMessage(scope: Scope, appIdOrUid: string, input: MessageIn, opts: PublishOptions = {}) {
  const channels = input.channels ?? [];
  let target: Target | null = await findTarget(scope, appIdOrUid, input.eventType, channels, opts.endpointIds);
  if (target) checkEventTypeState(input.eventType, target.eventType);
  else {
    // The event type first: a rejected message must not leave an auto-created application behind.
    await checkEventType(scope, input.eventType);
    const app = await createTargetApp(scope, appIdOrUid, input);
    target = { applicationId: app.id, environmentId: scope.environmentId, eventType: "ok", endpointIds: [] };
  }

  const now = new Date();
  const message: Message = {
    id: newId("message"),
    environmentId: target.environmentId,
    applicationId: target.applicationId,
    eventType: input.eventType,
    eventId: input.eventId ?? null,
    payload: input.payload as Prisma.JsonValue,
    previous: (input.previous ?? null) as Prisma.JsonValue,
    channels,
    payloadRetentionDays: input.payloadRetentionPeriod,
    replayOfId: opts.replayOfId ?? null,
    taskId: null,
    createdAt: now,
  };
  // The eventId claim, the message and its deliveries: one statement, so all or nothing.
  const deliveryIds = await storeMessage(message, target.endpointIds);
  if (!deliveryIds) {
    const prior = await db.eventIdClaim.findUnique({
      where: { environmentId_eventId: { environmentId: message.environmentId, eventId: input.eventId ?? "" } },
    });
    throw conflict(
      `A message with eventId ${input.eventId} was already published in the last 24 hours (${prior?.messageId ?? "unknown"})`,
    );
  }

  await enqueueDeliveries(deliveryIds.map((id, i) => ({ id, endpointId: target.endpointIds[i] })));

  const size = Buffer.byteLength(JSON.stringify(input.payload));
  const warnings =
    size > PAYLOAD_WARN_BYTES
      ? [`payload is ${Math.round(size / 1024)} KiB; keep webhook payloads under 20 KiB (send ids, let receivers fetch the rest)`]
      : [];
  return { message, deliveries: deliveryIds.length, warnings };
}

export function publishResponse(result: Awaited<ReturnType<typeof publishMessage>>, withContent: boolean) {
  const out = serializeMessage(result.message, withContent);
  return result.warnings.length > 0 ? { ...out, warnings: result.warnings } : out;
}
