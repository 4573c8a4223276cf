import { db } from "../db";
import { paginate, toListResponse, type ListQuery, type PageRequest } from "../http/pagination";
import type { DeliveryStatus, Prisma } from "../generated/prisma/client";
import type { Scope } from "../auth/principal";
import { findApplication } from "../applications/find-application";
import { findEndpoint } from "../endpoints/find-endpoint";
import { idFilter, idRange, type TimeRange } from "../messages/query-messages";
import { logStatus, statusBranches, type LogStatus } from "./delivery-status";
import { WAIT_ENDPOINT_SELECT, waitReasons } from "./wait-reason";
import { MAX_SEARCH_MESSAGES, messagesByIdPrefix } from "./search-messages";
import { messagesByPayload } from "./search-payloads";

// The portal's delivery log: one row per delivery (a message to one endpoint) across all the
// application's endpoints, newest first, with filters. It has to stay fast with millions of
// rows, so every filter combination is read as a few keyset scans in id order, each served by an
// index that ends in `id` ((application_id|endpoint_id, status, id), (application_id, event_type,
// id), (endpoint_id, id)), and the scans are merged. No OFFSET, no COUNT. See docs/portal.md.

export type DeliveryLogQuery = ListQuery &
  TimeRange & {
    endpoint_id?: string | undefined;
    event_types?: string[] | undefined;
    status?: LogStatus[] | undefined;
    search?: string | undefined;
    payload?: string | undefined;
    status_code?: number | undefined;
  };

const STORED: DeliveryStatus[] = ["pending", "sending", "succeeded", "failed", "canceled"];

const rowSelect = {
  id: true,
  messageId: true,
  endpointId: true,
  eventType: true,
  status: true,
  attemptCount: true,
  lastAttemptAt: true,
  lastStatusCode: true,
  nextAttemptAt: true,
  deadReason: true,
  createdAt: true,
} satisfies Prisma.DeliverySelect;
type Row = Prisma.DeliveryGetPayload<{ select: typeof rowSelect }>;

/** The scans to merge: each is an equality prefix of some index, read in id order. */
function branches(q: DeliveryLogQuery, hasSearch: boolean, hasEndpoint: boolean): Prisma.DeliveryWhereInput[] {
  const statusParts = q.status?.length ? [...new Set(q.status)].flatMap(statusBranches) : null;
  const types = q.event_types?.length ? [...new Set(q.event_types)] : null;
  const typeFilter: Prisma.DeliveryWhereInput = types ? { eventType: types.length === 1 ? types[0]! : { in: types } } : {};
  // A message search selects a handful of rows through the (message_id, endpoint_id) key: one scan.
  if (hasSearch) return [{ ...typeFilter, ...(statusParts ? { OR: statusParts } : {}) }];
  if (statusParts) return statusParts.map((s) => ({ ...s, ...typeFilter }));
  if (hasEndpoint) return [typeFilter];
  if (types) return types.map((t) => ({ eventType: t }));
  return STORED.map((status) => ({ status }));
}

async function readMerged(base: Prisma.DeliveryWhereInput, parts: Prisma.DeliveryWhereInput[], range: Prisma.StringFilter | undefined, page: PageRequest) {
  const cursor = page.after ? { id: page.direction === "asc" ? { gt: page.after } : { lt: page.after } } : {};
  const scans = await Promise.all(
    parts.map((part) =>
      db.delivery.findMany({
        where: { ...base, ...part, ...idFilter(cursor, range) },
        select: rowSelect,
        orderBy: { id: page.direction },
        take: page.take,
      }),
    ),
  );
  const rows = scans.flat();
  rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (page.direction === "desc") rows.reverse();
  return rows.slice(0, page.take);
}

export async function listDeliveryLogs(scope: Scope, appIdOrUid: string, q: DeliveryLogQuery) {
  const app = await findApplication(scope, appIdOrUid);
  const base: Prisma.DeliveryWhereInput = { applicationId: app.id };
  if (q.endpoint_id) base.endpointId = (await findEndpoint(scope, app.id, q.endpoint_id)).endpoint.id;

  // A Failures group: its status code, 0 standing for no HTTP answer (stored as 0 or null).
  if (q.status_code !== undefined)
    base.AND = [q.status_code === 0 ? { OR: [{ lastStatusCode: 0 }, { lastStatusCode: null }] } : { lastStatusCode: q.status_code }];

  // A search (id prefix, payload text, or both) narrows the log to a bounded set of messages.
  let searched: { ids: string[]; limited: boolean } | null = null;
  if (q.search) {
    const ids = await messagesByIdPrefix(app, q.search);
    searched = { ids, limited: ids.length >= MAX_SEARCH_MESSAGES };
  }
  if (q.payload) {
    const byPayload = await messagesByPayload(app.id, { term: q.payload, after: q.after, before: q.before });
    const both = searched ? new Set(searched.ids) : null;
    searched = {
      ids: both ? byPayload.ids.filter((id) => both.has(id)) : byPayload.ids,
      limited: byPayload.limited || Boolean(searched?.limited),
    };
  }
  if (searched) base.messageId = { in: searched.ids };
  const noMatch = searched?.ids.length === 0;

  const parts = branches(q, Boolean(searched), Boolean(q.endpoint_id));
  const range = idRange("delivery", q);
  const page = await paginate(q, "descending", "delivery", (p) => (noMatch ? Promise.resolve([]) : readMerged(base, parts, range, p)));
  const details = await rowDetails(page.rows, app.throttleRate);
  const list = toListResponse(page, (r) => serializeLogRow(r, details));
  // limited: more messages matched than a search reads (the newest are shown): narrow it to see others.
  return searched ? { ...list, search: { messages: searched.ids.length, limited: searched.limited } } : list;
}

async function rowDetails(rows: Row[], appThrottleRate: number | null) {
  const [messages, endpoints] = await Promise.all([
    db.message.findMany({
      where: { id: { in: [...new Set(rows.map((r) => r.messageId))] } },
      select: { id: true, eventId: true, replayOfId: true },
    }),
    db.endpoint.findMany({
      where: { id: { in: [...new Set(rows.map((r) => r.endpointId))] } },
      select: {
        id: true,
        uid: true,
        url: true,
        ...WAIT_ENDPOINT_SELECT,
      },
    }),
  ]);
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  const waiting = await waitReasons(
    rows.flatMap((r) => {
      const endpoint = byId.get(r.endpointId);
      return endpoint ? [{ id: r.id, delivery: r, endpoint }] : [];
    }),
    appThrottleRate,
  );
  return { messages: new Map(messages.map((m) => [m.id, m])), endpoints: byId, waiting };
}

function serializeLogRow(r: Row, d: Awaited<ReturnType<typeof rowDetails>>) {
  const msg = d.messages.get(r.messageId);
  const ep = d.endpoints.get(r.endpointId);
  return {
    id: r.id,
    msgId: r.messageId,
    eventId: msg?.eventId ?? null,
    replayOf: msg?.replayOfId ?? null,
    eventType: r.eventType,
    endpointId: r.endpointId,
    endpointUid: ep?.uid ?? null,
    endpointUrl: ep?.url ?? null,
    status: logStatus(r),
    attemptCount: r.attemptCount,
    lastStatusCode: r.lastStatusCode,
    lastAttemptAt: r.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: r.status === "pending" ? (r.nextAttemptAt?.toISOString() ?? null) : null,
    /** Why it is not delivered yet and until when (lib/portal/wait-reason.ts); null when finished. */
    waiting: d.waiting.get(r.id) ?? null,
    deadReason: r.deadReason,
    createdAt: r.createdAt.toISOString(),
  };
}
export type DeliveryLogRow = ReturnType<typeof serializeLogRow>;
