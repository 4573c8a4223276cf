import { db } from "../db";
import type { StateChange } from "../endpoints/set-endpoint-state";
import { emitOperationalEventSafely } from "./emit-operational-event";

// Payloads of the built-in operational events (Svix EndpointDisabledEventData,
// MessageAttempt{Failing,Exhausted,Recovered}EventData). Events about the internal application's
// own endpoints are never emitted: an operational endpoint failing must not feed itself.

/** endpoint.disabled when the platform disables an endpoint; endpoint.enabled when one comes back. */
export async function notifyEndpointStateChange(change: StateChange): Promise<void> {
  const disabled = change.to === "disabled";
  const enabled = change.to === "active" && change.from === "disabled";
  if (!disabled && !enabled) return;
  const ep = await db.endpoint.findUnique({
    where: { id: change.endpointId },
    select: {
      id: true,
      uid: true,
      environmentId: true,
      failingSince: true,
      application: { select: { id: true, uid: true, internal: true } },
    },
  });
  if (!ep || ep.application.internal) return;
  const base = { appId: ep.application.id, appUid: ep.application.uid, endpointId: ep.id, endpointUid: ep.uid };
  if (disabled)
    await emitOperationalEventSafely(ep.environmentId, "endpoint.disabled", {
      ...base,
      failSince: (ep.failingSince ?? new Date()).toISOString(),
      reason: change.reason,
    });
  else await emitOperationalEventSafely(ep.environmentId, "endpoint.enabled", base);
}

export type AttemptEventInput = {
  environmentId: string;
  applicationId: string;
  appUid: string | null;
  endpointId: string;
  messageId: string;
  msgEventId: string | null;
  attempt: { id: string; responseStatus: number; at: Date };
};

export function attemptEventData(i: AttemptEventInput): Record<string, unknown> {
  return {
    appId: i.applicationId,
    appUid: i.appUid,
    endpointId: i.endpointId,
    msgId: i.messageId,
    msgEventId: i.msgEventId,
    lastAttempt: {
      id: i.attempt.id,
      responseStatusCode: i.attempt.responseStatus,
      timestamp: i.attempt.at.toISOString(),
    },
  };
}

export function notifyAttemptEvent(
  type: "message.attempt.failing" | "message.attempt.exhausted" | "message.attempt.recovered",
  input: AttemptEventInput,
): Promise<void> {
  return emitOperationalEventSafely(input.environmentId, type, attemptEventData(input));
}
