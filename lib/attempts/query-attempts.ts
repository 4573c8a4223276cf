import { db } from "../db";
import { notFound } from "../http/errors";
import { cursorWhere, paginate, toListResponse, type ListQuery } from "../http/pagination";
import type { AttemptStatus, Message, Prisma } from "../generated/prisma/client";
import type { Scope } from "../auth/principal";
import { findEndpoint } from "../endpoints/find-endpoint";
import { findMessage, idFilter, idRange, type TimeRange } from "../messages/query-messages";
import { serializeMessage } from "../messages/serialize";
import { serializeAttempt } from "./serialize";

export type AttemptFilters = ListQuery &
  TimeRange & {
    status?: number | undefined;
    status_code_class?: number | undefined;
    channel?: string | undefined;
    event_types?: string[] | undefined;
    endpoint_id?: string | undefined;
    with_content: boolean;
    with_msg?: boolean | undefined;
  };

function attemptWhere(q: AttemptFilters): Prisma.AttemptWhereInput | null {
  const where: Prisma.AttemptWhereInput = {};
  if (q.status !== undefined) {
    // Attempts are finished tries: only success (0) and fail (2) can match.
    const s: AttemptStatus | null = q.status === 0 ? "success" : q.status === 2 ? "fail" : null;
    if (!s) return null;
    where.status = s;
  }
  if (q.status_code_class !== undefined)
    where.responseStatus = q.status_code_class === 0 ? 0 : { gte: q.status_code_class, lt: q.status_code_class + 100 };
  if (q.event_types?.length) where.eventType = { in: q.event_types };
  if (q.channel) where.delivery = { message: { channels: { has: q.channel } } };
  return where;
}

async function listAttempts(base: Prisma.AttemptWhereInput, q: AttemptFilters) {
  const filters = attemptWhere(q);
  const range = idRange("attempt", q);
  const page = await paginate(q, "descending", "attempt", (p) =>
    filters === null
      ? Promise.resolve([])
      : db.attempt.findMany({
          where: { ...base, ...filters, ...idFilter(cursorWhere(p), range) },
          orderBy: { id: p.direction },
          take: p.take,
          ...(q.with_msg ? { include: { delivery: { select: { message: true } } } } : {}),
        }),
  );
  return toListResponse(page, (a) => {
    const out = serializeAttempt(a, q.with_content);
    // Like Svix, the message comes without its payload.
    const msg = (a as { delivery?: { message: Message } }).delivery?.message;
    return msg ? { ...out, msg: serializeMessage(msg, false) } : out;
  });
}

export async function listAttemptsByEndpoint(scope: Scope, app: string, endpoint: string, q: AttemptFilters) {
  const { endpoint: ep } = await findEndpoint(scope, app, endpoint);
  return listAttempts({ endpointId: ep.id }, q);
}

export async function listAttemptsByMessage(scope: Scope, app: string, msgId: string, q: AttemptFilters) {
  const { app: a, msg } = await findMessage(scope, app, msgId);
  let endpointId: string | undefined;
  if (q.endpoint_id) endpointId = (await findEndpoint(scope, a.id, q.endpoint_id)).endpoint.id;
  return listAttempts({ messageId: msg.id, ...(endpointId ? { endpointId } : {}) }, q);
}

export async function findAttempt(scope: Scope, app: string, msgId: string, attemptId: string) {
  const { msg } = await findMessage(scope, app, msgId);
  const attempt = await db.attempt.findFirst({ where: { id: attemptId, messageId: msg.id } });
  if (!attempt) throw notFound("Message attempt");
  return attempt;
}

export async function getAttempt(scope: Scope, app: string, msgId: string, attemptId: string) {
  return serializeAttempt(await findAttempt(scope, app, msgId, attemptId));
}

/** Deletes what the receiver answered and the body sent; status, timing and headers stay. */
export async function expungeAttemptContent(scope: Scope, app: string, msgId: string, attemptId: string) {
  const attempt = await findAttempt(scope, app, msgId, attemptId);
  await db.attempt.update({ where: { id: attempt.id }, data: { responseBody: null, requestBody: null } });
}
