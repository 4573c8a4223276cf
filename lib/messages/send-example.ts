import type { Scope } from "../auth/principal";
import { ValidationError, invalid } from "../http/errors";
import { findEndpoint } from "../endpoints/find-endpoint";
import { findEventType } from "../event-types/manage-event-types";
import { exampleAt, latestSchema } from "../event-types/example-payload";
import { cachedPayloadChecker } from "../event-types/check-payload";
import { publishMessage } from "./publish-message";

/**
 * The payload of a sample: the integrator's own when given (checked against the event type's
 * newest schema with the same checker the Send page runs as they type, so the page and the
 * server agree; a mismatch is a 422 per wrong field, `loc` ending in its path), otherwise the
 * schema's example number `exampleIndex`.
 */
export function samplePayload(
  et: { name: string; schemas: unknown },
  given: Record<string, unknown> | null | undefined,
  exampleIndex = 0,
): Record<string, unknown> {
  if (given) {
    const check = cachedPayloadChecker(latestSchema(et.schemas))(given);
    if (!check.ok)
      throw new ValidationError(
        check.problems.map((p) => ({ loc: ["body", "payload", ...p.path], msg: p.message, type: "value_error.schema" })),
      );
    return check.payload;
  }
  const payload = exampleAt(et.schemas, exampleIndex);
  if (!payload) throw invalid(["body", "exampleIndex"], `event type ${et.name} has no example #${exampleIndex} in its schema`);
  return payload;
}

/** POST …/endpoint/{ep}/send-example: a sample of an event type, delivered to this endpoint only. */
export async function sendExample(
  scope: Scope,
  app: string,
  endpoint: string,
  body: { eventType: string; exampleIndex?: number; payload?: Record<string, unknown> | null | undefined },
) {
  const { app: a, endpoint: ep } = await findEndpoint(scope, app, endpoint);
  const et = await findEventType(scope, body.eventType);
  const payload = samplePayload(et, body.payload, body.exampleIndex);
  return publishMessage(scope, a.id, { eventType: et.name, payload, payloadRetentionPeriod: 90 }, { endpointIds: [ep.id] });
}
