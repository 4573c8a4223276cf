import { db } from "../db";
import { conflict } from "../http/errors";
import { newId } from "../ids";
import type { Scope } from "../auth/principal";
import { findDelivery } from "../delivery-queries/query-deliveries";
import { enqueueManualAttempt } from "./enqueue-deliveries";

/**
 * Manual retry ("resend"): a new attempt of the same delivery, so the receiver sees the same
 * webhook-id, recorded with trigger type manual. An endpoint that was not a target of the message
 * gets a delivery created for it. What the attempt does to the delivery (lib/delivery/decide-next):
 * success marks it succeeded, also from the dead letter; failure leaves it as it was.
 */
export async function resendMessage(scope: Scope, app: string, msgId: string, endpointIdOrUid: string) {
  const { msg, endpoint } = await findDelivery(scope, app, msgId, endpointIdOrUid);
  if (endpoint.state !== "active")
    throw conflict(
      `The endpoint is ${endpoint.state}; enable it before resending messages to it`,
      "endpoint_not_active",
    );
  if (msg.payload === null)
    throw conflict("The message's payload was expunged, so it cannot be sent again", "payload_expunged");
  const delivery = await db.delivery.upsert({
    where: { messageId_endpointId: { messageId: msg.id, endpointId: endpoint.id } },
    update: {},
    create: {
      id: newId("delivery"),
      environmentId: msg.environmentId,
      applicationId: msg.applicationId,
      endpointId: endpoint.id,
      messageId: msg.id,
      eventType: msg.eventType,
      status: "pending",
      nextAttemptAt: new Date(),
    },
  });
  await enqueueManualAttempt(delivery.id);
  return delivery;
}
