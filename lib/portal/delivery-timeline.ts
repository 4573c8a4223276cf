import { db } from "../db";
import { notFound } from "../http/errors";
import type { Scope } from "../auth/principal";
import { findApplication } from "../applications/find-application";
import { serializeAttempt } from "../attempts/serialize";
import { serializeMessage } from "../messages/serialize";
import { logStatus } from "./delivery-status";
import { WAIT_ENDPOINT_SELECT, waitReasons } from "./wait-reason";

// The attempt inspector's data: one delivery (a message to one endpoint) with every attempt
// in order, each with the exact request sent and the response received, plus the message and
// its replay links (the message it replays, and the replays made of it).

const MAX_REPLAYS_LISTED = 20;

export async function deliveryTimeline(scope: Scope, appIdOrUid: string, deliveryId: string) {
  const app = await findApplication(scope, appIdOrUid);
  // Scoped in the query: another application's delivery id is simply not found.
  const delivery = await db.delivery.findFirst({
    where: { id: deliveryId, applicationId: app.id },
    include: {
      message: true,
      endpoint: {
        select: {
          id: true,
          uid: true,
          url: true,
          signingAlgorithm: true,
          ...WAIT_ENDPOINT_SELECT,
        },
      },
      attempts: { orderBy: { id: "asc" } },
    },
  });
  if (!delivery) throw notFound("Delivery");
  const replays = await db.message.findMany({
    where: { applicationId: app.id, replayOfId: delivery.messageId },
    select: { id: true, createdAt: true },
    orderBy: { id: "desc" },
    take: MAX_REPLAYS_LISTED,
  });
  const waiting = (await waitReasons([{ id: delivery.id, delivery, endpoint: delivery.endpoint }], app.throttleRate)).get(delivery.id) ?? null;
  const { id, uid, url, state, signingAlgorithm } = delivery.endpoint;
  return {
    id: delivery.id,
    status: logStatus(delivery),
    attemptCount: delivery.attemptCount,
    nextAttemptAt: delivery.status === "pending" ? (delivery.nextAttemptAt?.toISOString() ?? null) : null,
    /** Why it is not delivered yet and until when (lib/portal/wait-reason.ts); null when finished. */
    waiting,
    deadReason: delivery.deadReason,
    deadAt: delivery.deadAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
    endpoint: { id, uid, url, state, signingAlgorithm },
    message: serializeMessage(delivery.message, true),
    replays: replays.map((m) => ({ id: m.id, timestamp: m.createdAt.toISOString() })),
    attempts: delivery.attempts.map((a) => serializeAttempt(a, true)),
  };
}
export type DeliveryTimeline = Awaited<ReturnType<typeof deliveryTimeline>>;
