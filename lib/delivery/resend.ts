import { db } from "../db";
import { newId } from "../ids";
import type { Scope } from "../auth/principal";
import { findDelivery } from "../deliveries/query-deliveries";
import { enqueue } from "../queue/catalog";

/**
 * Manual retry ("resend"): a new attempt of the same delivery, so the receiver sees the same
 * webhook-id. An endpoint that was not a target of the message gets a delivery created for it.
 */
export async function resendMessage(scope: Scope, app: string, msgId: string, endpointIdOrUid: string) {
  const { msg, endpoint } = await findDelivery(scope, app, msgId, endpointIdOrUid);
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
  // A distinct job id: the scheduled job for this delivery (if any) must not swallow it.
  await enqueue("deliver", [
    { data: { deliveryId: delivery.id, trigger: "manual" }, opts: { jobId: `${delivery.id}-manual-${Date.now()}` } },
  ]);
  return delivery;
}
