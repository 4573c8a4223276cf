import { z } from "zod";
import { db } from "../../db";
import { conflict } from "../../http/errors";
import { zIdOrUid } from "../../http/fields";
import type { Scope } from "../../auth/principal";
import { findEndpoint } from "../../endpoints/find-endpoint";
import { findMessage } from "../../messages/query-messages";
import { publishMessage } from "../../messages/publish-message";
import { serializeMessage } from "../../messages/serialize";

// POST …/msg/{msg}/replay: the portal inspector's "replay" button. The message is ingested again
// as a NEW message (new id, so receivers see a new webhook-id) that links to the original through
// `replayOf`; compare with a retry (resend), a new attempt of the same delivery and webhook-id.

export const ReplayMessageIn = z
  .object({ endpoint_id: zIdOrUid.nullish() })
  // A misspelt field (endpointId) would otherwise be dropped and the replay widened to everything.
  .strict();

export async function replayMessage(scope: Scope, app: string, msgId: string, input: z.infer<typeof ReplayMessageIn>) {
  const { app: a, msg } = await findMessage(scope, app, msgId);
  if (msg.payload === null)
    throw conflict(
      "This message's payload was expunged (retention or on request), so it cannot be replayed",
      "payload_expunged",
    );
  // Without a named endpoint it goes where a publish of it would go now: by subscription, or, for a
  // message sent to chosen endpoints (a sample), to those again, never to the others.
  let endpointIds: string[] | undefined = msg.addressedTo.length > 0 ? msg.addressedTo : undefined;
  if (input.endpoint_id) {
    const { endpoint } = await findEndpoint(scope, a.id, input.endpoint_id);
    if (endpoint.state !== "active")
      throw conflict(
        `Endpoint ${endpoint.id} is ${endpoint.state}; enable it before replaying to it`,
        "endpoint_not_active",
      );
    endpointIds = [endpoint.id];
  } else if (endpointIds) {
    // A sample whose endpoints are all paused or disabled now would become a message with no
    // delivery, answered 202 as if it went somewhere.
    const active = await db.endpoint.count({ where: { id: { in: endpointIds }, applicationId: a.id, state: "active" } });
    if (active === 0)
      throw conflict(
        "This message was sent to chosen endpoints only (a sample), and none of them is active now: enable one, or name an endpoint (endpoint_id) to replay it to",
        "endpoint_not_active",
      );
  }
  const result = await publishMessage(
    scope,
    a.id,
    {
      eventType: msg.eventType,
      payload: msg.payload as Record<string, unknown>,
      previous: (msg.previous as Record<string, unknown> | null) ?? null,
      channels: msg.channels.length > 0 ? msg.channels : null,
      payloadRetentionPeriod: msg.payloadRetentionDays,
      eventId: null,
      application: null,
    },
    { ...(endpointIds ? { endpointIds } : {}), replayOfId: msg.id },
  );
  return { ...serializeMessage(result.message), deliveries: result.deliveries };
}
