import { z } from "zod";
import { db } from "../../db";
import { Prisma, type DeliveryStatus } from "../../generated/prisma/client";
import { invalid } from "../../http/errors";
import { zChannel, zDateTime, zEventTypeName, zIdOrUid, zUniqueList } from "../../http/fields";
import { idAtTime } from "../../ids";
import type { Scope } from "../../auth/principal";
import { findApplication } from "../../applications/find-application";
import { findEndpoint } from "../../endpoints/find-endpoint";
import { resolveTimeRange } from "../delivery-filter";
import { endpointReceivesSql } from "../../messages/fan-out-message";

// Which messages a range replay ingests again, and to which endpoints. The dry run (estimate)
// and the worker use the same SQL, so the estimate counts exactly what the run would create.

export const ORIGINAL_STATUS = {
  success: ["succeeded"],
  fail: ["failed", "canceled"],
  pending: ["pending"],
  sending: ["sending"],
} as const satisfies Record<string, DeliveryStatus[]>;

export const ReplayFilterIn = z.object({
  since: zDateTime.nullish(),
  /** Default: the moment of the estimate (pinned in its confirmation token) or of the request. */
  until: zDateTime.nullish(),
  event_types: zUniqueList(zEventTypeName).max(100).nullish(),
  channels: zUniqueList(zChannel).max(20).nullish(),
  /** Only messages whose original delivery (to the target endpoint, or to any) had this status. */
  original_status: zUniqueList(z.enum(["success", "fail", "pending", "sending"]))
    .min(1)
    .nullish(),
  /** Only messages never successfully delivered to the target endpoint (needs endpoint_id). */
  only_undelivered: z.boolean().default(false),
  /** Messages that are themselves replays are skipped unless this is set. */
  include_replays: z.boolean().default(false),
  /** The one endpoint to send to; absent = every active endpoint that subscribes to the message. */
  endpoint_id: zIdOrUid.nullish(),
})
  // A misspelt field (endpointId) would otherwise be dropped and the replay widened to everything.
  .strict();
export type ReplayFilterIn = z.infer<typeof ReplayFilterIn>;

/** A filter with ids resolved and the time range pinned: what a task stores and a token signs. */
export type ReplayFilter = {
  appId: string;
  environmentId: string;
  endpointId: string | null;
  since: string | null;
  until: string;
  eventTypes: string[];
  channels: string[];
  originalStatus: (keyof typeof ORIGINAL_STATUS)[];
  onlyUndelivered: boolean;
  includeReplays: boolean;
};

export async function resolveReplayFilter(
  scope: Scope,
  appIdOrUid: string,
  input: ReplayFilterIn,
  pinnedUntil: Date,
): Promise<ReplayFilter> {
  const app = await findApplication(scope, appIdOrUid);
  let endpointId: string | null = null;
  if (input.endpoint_id) {
    const { endpoint } = await findEndpoint(scope, app.id, input.endpoint_id);
    if (endpoint.state !== "active")
      throw invalid(
        ["body", "endpoint_id"],
        `endpoint is ${endpoint.state}; enable it before replaying messages to it`,
      );
    endpointId = endpoint.id;
  }
  if (input.only_undelivered && !endpointId)
    throw invalid(["body", "only_undelivered"], "needs endpoint_id (undelivered to which endpoint?)");
  const { since, until } = resolveTimeRange(input.since, input.until, pinnedUntil);
  return {
    appId: app.id,
    environmentId: app.environmentId,
    endpointId,
    since,
    until,
    eventTypes: [...(input.event_types ?? [])].sort(),
    channels: [...(input.channels ?? [])].sort(),
    originalStatus: [...(input.original_status ?? [])].sort(),
    onlyUndelivered: input.only_undelivered,
    includeReplays: input.include_replays,
  };
}

/** Canonical text of a filter, for comparing a request with the estimate it claims to confirm. */
export function filterKey(f: ReplayFilter): string {
  return JSON.stringify([
    f.appId,
    f.endpointId,
    f.since,
    f.until,
    f.eventTypes,
    f.channels,
    f.originalStatus,
    f.onlyUndelivered,
    f.includeReplays,
  ]);
}

export type ReplayCandidate = { id: string; endpoint_ids: string[] };

/**
 * Endpoint `e` would receive message `m` if it were published now (the fan-out's rule): by
 * subscription, so a new endpoint gets the messages from before it existed, but a message sent to
 * chosen endpoints (a sample, a replay to one endpoint) only to those.
 */
const RECEIVES = Prisma.raw(endpointReceivesSql("m.event_type", "m.channels", "m.addressed_to"));

/** The messages to replay (with their target endpoints) in id order, after `after`. */
function candidatesSql(f: ReplayFilter, page?: { after: string | null; limit: number }) {
  const conds: Prisma.Sql[] = [
    Prisma.sql`m.application_id = ${f.appId}`,
    Prisma.sql`m.payload IS NOT NULL`,
    Prisma.sql`m.id < ${idAtTime("message", new Date(f.until))}`,
  ];
  if (f.since) conds.push(Prisma.sql`m.id >= ${idAtTime("message", new Date(f.since))}`);
  if (page?.after) conds.push(Prisma.sql`m.id > ${page.after}`);
  if (!f.includeReplays) conds.push(Prisma.sql`m.replay_of_id IS NULL`);
  if (f.eventTypes.length) conds.push(Prisma.sql`m.event_type = ANY(${f.eventTypes}::text[])`);
  if (f.channels.length) conds.push(Prisma.sql`m.channels && ${f.channels}::text[]`);
  const onEndpoint = f.endpointId ? Prisma.sql`AND d.endpoint_id = ${f.endpointId}` : Prisma.empty;
  if (f.originalStatus.length) {
    const statuses = f.originalStatus.flatMap((s) => ORIGINAL_STATUS[s]);
    conds.push(
      Prisma.sql`EXISTS (SELECT 1 FROM delivery d WHERE d.message_id = m.id ${onEndpoint} AND d.status = ANY(${statuses}::"DeliveryStatus"[]))`,
    );
  }
  if (f.onlyUndelivered)
    conds.push(
      Prisma.sql`NOT EXISTS (SELECT 1 FROM delivery d WHERE d.message_id = m.id ${onEndpoint} AND d.status = 'succeeded')`,
    );
  conds.push(Prisma.sql`t.endpoint_ids IS NOT NULL`);
  const target = f.endpointId ? Prisma.sql`AND e.id = ${f.endpointId}` : Prisma.empty;
  return Prisma.sql`
    SELECT m.id, t.endpoint_ids
    FROM message m
    CROSS JOIN LATERAL (
      SELECT array_agg(e.id ORDER BY e.id) AS endpoint_ids
      FROM endpoint e
      WHERE e.application_id = m.application_id ${target} AND ${RECEIVES}
    ) t
    WHERE ${Prisma.join(conds, " AND ")}
    ORDER BY m.id
    ${page ? Prisma.sql`LIMIT ${page.limit}` : Prisma.empty}`;
}

export function replayCandidates(f: ReplayFilter, after: string | null, limit: number) {
  return db.$queryRaw<ReplayCandidate[]>(candidatesSql(f, { after, limit }));
}

export type ReplayCounts = { messages: number; deliveries: number; endpoints: number };

export async function countReplay(f: ReplayFilter): Promise<ReplayCounts> {
  const [row] = await db.$queryRaw<ReplayCounts[]>`
    WITH q AS MATERIALIZED (${candidatesSql(f)})
    SELECT (SELECT count(*) FROM q)::int AS messages,
           (SELECT coalesce(sum(cardinality(q.endpoint_ids)), 0) FROM q)::int AS deliveries,
           (SELECT count(DISTINCT e) FROM q, unnest(q.endpoint_ids) AS e)::int AS endpoints`;
  return row ?? { messages: 0, deliveries: 0, endpoints: 0 };
}
