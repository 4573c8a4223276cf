// Operational webhooks: events about the delivery system itself, sent to the operator's own
// endpoints (registered per environment under /api/v1/operational-webhook) through the same
// delivery pipeline as every other webhook. Payload shapes follow the Svix `*EventData` schemas.

export const OPERATIONAL_EVENT_TYPES = [
  "endpoint.disabled",
  "endpoint.enabled",
  "message.attempt.failing",
  "message.attempt.exhausted",
  "message.attempt.recovered",
  "background_task.finished",
] as const;

export type OperationalEventType = (typeof OPERATIONAL_EVENT_TYPES)[number];

/** message.attempt.failing is sent when this many scheduled attempts of a delivery have failed. */
export const FAILING_AFTER_ATTEMPTS = 4;

export function isOperationalEventType(name: string): name is OperationalEventType {
  return (OPERATIONAL_EVENT_TYPES as readonly string[]).includes(name);
}
