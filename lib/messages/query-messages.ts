import { db } from "../db";
import { notFound } from "../http/errors";
import { idAtTime } from "../ids";
import { cursorWhere, paginate, toListResponse, type ListQuery } from "../http/pagination";
import { Prisma } from "../generated/prisma/client";
import type { Scope } from "../auth/principal";
import { findApplication } from "../applications/find-application";
import { serializeMessage } from "./serialize";

export type TimeRange = { before?: Date | undefined; after?: Date | undefined };

/** Time filters as id bounds: ids are time-ordered, so the id index serves them. */
export function idRange(kind: "message" | "attempt" | "delivery", range: TimeRange): Prisma.StringFilter | undefined {
  if (!range.before && !range.after) return undefined;
  return {
    ...(range.after ? { gt: idAtTime(kind, range.after) } : {}),
    ...(range.before ? { lt: idAtTime(kind, range.before) } : {}),
  };
}

/** Merges a cursor bound with a time range on `id`. */
export function idFilter(cursor: Record<string, unknown>, range: Prisma.StringFilter | undefined) {
  const c = (cursor.id ?? {}) as Prisma.StringFilter;
  const merged: Prisma.StringFilter = { ...range };
  if (c.gt) merged.gt = merged.gt && merged.gt > c.gt ? merged.gt : c.gt;
  if (c.lt) merged.lt = merged.lt && merged.lt < c.lt ? merged.lt : c.lt;
  return Object.keys(merged).length > 0 ? { id: merged } : {};
}

export async function findMessage(scope: Scope, appIdOrUid: string, msgIdOrEventId: string) {
  const app = await findApplication(scope, appIdOrUid);
  const msg = await db.message.findFirst({
    where: { applicationId: app.id, OR: [{ id: msgIdOrEventId }, { eventId: msgIdOrEventId }] },
    orderBy: { id: "desc" },
  });
  if (!msg) throw notFound("Message");
  return { app, msg };
}

export async function listMessages(
  scope: Scope,
  appIdOrUid: string,
  q: ListQuery & TimeRange & { channel?: string | undefined; event_types?: string[] | undefined; with_content: boolean },
) {
  const app = await findApplication(scope, appIdOrUid);
  const range = idRange("message", q);
  const page = await paginate(q, "descending", "message", (p) =>
    db.message.findMany({
      where: {
        applicationId: app.id,
        ...(q.channel ? { channels: { has: q.channel } } : {}),
        ...(q.event_types?.length ? { eventType: { in: q.event_types } } : {}),
        ...idFilter(cursorWhere(p), range),
      },
      orderBy: { id: p.direction },
      take: p.take,
    }),
  );
  return toListResponse(page, (m) => serializeMessage(m, q.with_content));
}

/** Removes the payload (e.g. personal data); the message and its delivery history stay. */
export async function expungeMessageContent(scope: Scope, appIdOrUid: string, msgId: string) {
  const { msg } = await findMessage(scope, appIdOrUid, msgId);
  await db.$transaction([
    db.message.update({ where: { id: msg.id }, data: { payload: Prisma.DbNull, previous: Prisma.DbNull } }),
    db.attempt.updateMany({ where: { messageId: msg.id }, data: { requestBody: null } }),
  ]);
}
