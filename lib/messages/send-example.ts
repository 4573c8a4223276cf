import type { Scope } from "../auth/principal";
import { findEndpoint } from "../endpoints/find-endpoint";
import { findEventType } from "../event-types/manage-event-types";
import { examplePayload } from "../event-types/example-payload";
import { publishMessage } from "./publish-message";

/** POST …/endpoint/{ep}/send-example: a sample of an event type, delivered to this endpoint only. */
export async function sendExample(scope: Scope, app: string, endpoint: string, eventType: string) {
  const { app: a, endpoint: ep } = await findEndpoint(scope, app, endpoint);
  const et = await findEventType(scope, eventType);
  return publishMessage(
    scope,
    a.id,
    { eventType: et.name, payload: examplePayload(et.schemas), payloadRetentionPeriod: 90 },
    { endpointIds: [ep.id] },
  );
}
