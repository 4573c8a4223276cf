import type { Scope } from "../auth/principal";
import { invalid } from "../http/errors";
import { findEndpoint } from "../endpoints/find-endpoint";
import { findEventType } from "../event-types/manage-event-types";
import { exampleAt } from "../event-types/example-payload";
import { publishMessage } from "./publish-message";

/** POST …/endpoint/{ep}/send-example: a sample of an event type, delivered to this endpoint only. */
export async function sendExample(scope: Scope, app: string, endpoint: string, eventType: string, exampleIndex = 0) {
  const { app: a, endpoint: ep } = await findEndpoint(scope, app, endpoint);
  const et = await findEventType(scope, eventType);
  const payload = exampleAt(et.schemas, exampleIndex);
  if (!payload) throw invalid(["body", "exampleIndex"], `event type ${et.name} has no example #${exampleIndex} in its schema`);
  return publishMessage(scope, a.id, { eventType: et.name, payload, payloadRetentionPeriod: 90 }, { endpointIds: [ep.id] });
}
