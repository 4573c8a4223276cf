import { db } from "../db";
import { cursorWhere, paginate, toListResponse, type ListQuery } from "../http/pagination";
import type { Prisma } from "../generated/prisma/client";
import type { Scope } from "../auth/principal";
import { MESSAGE_STATUS, deliveryStatusText, deliveryStatusesFor } from "../attempts/status";
import { findEndpoint } from "../endpoints/find-endpoint";
import { serializeEndpoint } from "../endpoints/serialize";
import { findMessage, idFilter, idRange, type TimeRange } from "../messages/query-messages";
import { serializeMessage } from "../messages/serialize";

// Read queries over deliveries, for the API: where each message stands with each endpoint (Svix's
// attempted messages and attempted destinations). The engine that makes deliveries happen is
// lib/delivery.

function deliveryState(d: { status: Parameters<typeof deliveryStatusText>[0]; nextAttemptAt: Date | null }, expanded = false) {
  const statusText = deliveryStatusText(d.status, expanded);
  return {
    status: MESSAGE_STATUS[statusText],
    statusText,
    nextAttempt: d.status === "pending" && d.nextAttemptAt ? d.nextAttemptAt.toISOString() : null,
  };
}

/** GET /app/{app}/endpoint/{ep}/msg: the messages an endpoint was sent, with their delivery state. */
export async function listAttemptedMessages(
  scope: Scope,
  app: string,
  endpoint: string,
  q: ListQuery &
    TimeRange & {
      channel?: string | undefined;
      status?: number | undefined;
      event_types?: string[] | undefined;
      with_content: boolean;
      expanded_statuses?: boolean | undefined;
    },
) {
  const { endpoint: ep } = await findEndpoint(scope, app, endpoint);
  const range = idRange("delivery", q);
  const where: Prisma.DeliveryWhereInput = {
    endpointId: ep.id,
    ...(q.status !== undefined ? { status: { in: deliveryStatusesFor(q.status, q.expanded_statuses) } } : {}),
    ...(q.event_types?.length ? { eventType: { in: q.event_types } } : {}),
    ...(q.channel ? { message: { channels: { has: q.channel } } } : {}),
  };
  const page = await paginate(q, "descending", "delivery", (p) =>
    db.delivery.findMany({
      where: { ...where, ...idFilter(cursorWhere(p), range) },
      include: { message: true },
      orderBy: { id: p.direction },
      take: p.take,
    }),
  );
  return toListResponse(page, (d) => ({
    ...serializeMessage(d.message, q.with_content),
    ...deliveryState(d, q.expanded_statuses),
  }));
}

/** GET /app/{app}/msg/{msg}/endpoint: the endpoints a message was sent to, with delivery state. */
export async function listAttemptedDestinations(scope: Scope, app: string, msgId: string, q: ListQuery) {
  const { msg } = await findMessage(scope, app, msgId);
  const page = await paginate(q, "ascending", "delivery", (p) =>
    db.delivery.findMany({
      where: { messageId: msg.id, ...cursorWhere(p) },
      include: { endpoint: true },
      orderBy: { id: p.direction },
      take: p.take,
    }),
  );
  return toListResponse(page, (d) => ({ ...serializeEndpoint(d.endpoint), ...deliveryState(d) }));
}

export async function findDelivery(scope: Scope, app: string, msgId: string, endpointIdOrUid: string) {
  const { msg } = await findMessage(scope, app, msgId);
  const { endpoint } = await findEndpoint(scope, app, endpointIdOrUid);
  return { msg, endpoint };
}
