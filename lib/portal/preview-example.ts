import type { Scope } from "../auth/principal";
import { newId } from "../ids";
import { invalid } from "../http/errors";
import { buildBody, buildHeaders } from "../delivery/build-request";
import { signingKeys } from "../endpoints/endpoint-secrets";
import { findEndpoint } from "../endpoints/find-endpoint";
import { openHeaders } from "../endpoints/manage-endpoints";
import { findEventType } from "../event-types/manage-event-types";
import { samplePayload } from "../messages/send-example";

/**
 * "Send sample event" shows the request before it is sent: the body and headers built by the
 * delivery engine's own code (envelope, signing with the endpoint's current keys, custom headers
 * with credential values redacted as in the attempt log). Only the id, timestamp and therefore
 * the signature differ from the real send, which gets its own message id at publish time. With
 * the payload being edited, checked as send-example checks it (a 422 naming the wrong field).
 */
export async function previewExample(
  scope: Scope,
  appIdOrUid: string,
  endpointIdOrUid: string,
  eventType: string,
  given?: Record<string, unknown> | null,
) {
  const { app, endpoint } = await findEndpoint(scope, appIdOrUid, endpointIdOrUid);
  const et = await findEventType(scope, eventType);
  if (et.archived) throw invalid(["body", "eventType"], `event type ${et.name} is archived; it cannot be sent`);
  const payload = samplePayload(et, given);
  const messageId = newId("message");
  const body = buildBody({ id: messageId, eventType: et.name, payload, previous: null, createdAt: new Date() }, app.payloadFormat);
  const { recorded } = buildHeaders({
    messageId,
    body,
    keys: signingKeys(endpoint),
    customHeaders: openHeaders(endpoint.headersEncrypted),
  });
  return {
    method: "POST" as const,
    url: endpoint.url,
    payloadFormat: app.payloadFormat,
    headers: recorded,
    body: body.toString("utf8"),
    payload,
  };
}
export type ExamplePreview = Awaited<ReturnType<typeof previewExample>>;
