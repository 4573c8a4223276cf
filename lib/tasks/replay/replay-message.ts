import { z } from "zod";
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

export const ReplayMessageIn = z.object({ endpoint_id: zIdOrUid.nullish() });

export async function replayMessage(scope: Scope, app: string, msgId: string, input: z.infer<typeof ReplayMessageIn>) {
  const { app: a, msg } = await findMessage(scope, app, msgId);
  if (msg.payload === null)
    throw conflict(
      "This message's payload was expunged (retention or on request), so it cannot be replayed",
      "payload_expunged",
    );
  let endpointIds: string[] | undefined;
  if (input.endpoint_id) {
    const { endpoint } = await findEndpoint(scope, a.id, input.endpoint_id);
    if (endpoint.state !== "active")
      throw conflict(
        `Endpoint ${endpoint.id} is ${endpoint.state}; enable it before replaying to it`,
        "endpoint_not_active",
      );
    endpointIds = [endpoint.id];
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
