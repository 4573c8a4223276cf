import { newId } from "../ids";
import { logger } from "../logger";
import { query } from "../sql";
import { enqueueDeliveries } from "../delivery/enqueue-deliveries";
import { endpointWantsSql, storeMessage } from "../messages/fan-out-message";
import { findOperationalApp } from "./operational-app";

// Sends an operational event to the environment's operational endpoints that want it: a message
// in the internal application and one delivery per endpoint (the same fan-out as publishing),
// delivered (signed, retried, recorded) by the normal engine. Nothing is stored when no endpoint
// wants the event. Any event type may be emitted (e.g. background_task.finished from the task
// runner). Operational messages carry no channels.

export const OPERATIONAL_RETENTION_DAYS = 30;

export async function emitOperationalEvent(
  environmentId: string,
  eventType: string,
  data: Record<string, unknown>,
): Promise<{ messageId: string; deliveries: number } | null> {
  const app = await findOperationalApp(environmentId);
  if (!app) return null;
  const [row] = await query<{ ids: string[] | null }>(
    "operational_targets",
    `SELECT array_agg(e.id ORDER BY e.id) AS ids FROM endpoint e
     WHERE e.application_id = $1 AND ${endpointWantsSql("$2", "'{}'::text[]")}`,
    [app.id, eventType],
  );
  const targets = row?.ids ?? [];
  if (targets.length === 0) return null;

  const messageId = newId("message");
  const deliveryIds = await storeMessage(
    {
      id: messageId,
      environmentId,
      applicationId: app.id,
      eventType,
      eventId: null,
      payload: data,
      previous: null,
      channels: [],
      payloadRetentionDays: OPERATIONAL_RETENTION_DAYS,
      replayOfId: null,
      createdAt: new Date(),
      addressedTo: [],
    },
    targets,
  );
  if (!deliveryIds) throw new Error("operational message was not stored"); // only an eventId can refuse it
  await enqueueDeliveries(deliveryIds.map((id) => ({ id })));
  return { messageId, deliveries: deliveryIds.length };
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
