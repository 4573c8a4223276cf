import { z } from "zod";
import { db } from "../db";
import { idAtTime } from "../ids";
import { query } from "../sql";
import { cursorWhere, listQuery, paginate, toListResponse } from "../http/pagination";
import type { Scope } from "../auth/principal";
import { serializeApplication } from "./serialize";
import { retryingSql, UNFINISHED_COUNTED, untriedSql } from "../portal/delivery-status";

// The console's list of applications: search by name (substring), uid or id, newest first, with
// each one's deliveries: finished in the last 24 hours (succeeded, dead: the success rate is of
// these), and in trouble now, whatever their age (failing, held; the portal's notion, see
// UNFINISHED). One keyset-paginated read of the page (index application(environment_id, id)) and
// one grouped statement for the whole page — never a query per row. Both of its branches read
// delivery(application_id, status, id): the finished ones by an id bound for the time (no heap
// read of the rows needed), the unfinished ones are the application's backlog, joined to their
// endpoint for its circuit.

export const ApplicationSummaryQuery = listQuery.extend({
  search: z.string().trim().max(256, "is longer than 256 characters").optional(),
});
export type ApplicationSummaryQuery = z.infer<typeof ApplicationSummaryQuery>;

const DAY_MS = 24 * 3600_000;

export type DeliveryRate = { succeeded: number; failed: number; successRate: number | null };
/**
 * Deliveries not finished, counted as the portal names them (lib/portal/delivery-status.ts,
 * wait-reason.ts, failure-groups.ts): failing = retrying after a failed attempt (the log's
 * "failed"); held = not tried yet because its active endpoint's circuit is open (the log's
 * "circuit open" wait). Disjoint: a retrying delivery behind an open circuit counts as failing.
 * capped: UNFINISHED_COUNTED were read (lib/portal/delivery-status.ts), so both are lower bounds.
 */
export type Unfinished = { failing: number; held: number; capped: boolean };
type Summary = { last24h: DeliveryRate; unfinished: Unfinished };

export function rate(succeeded: number, failed: number): DeliveryRate {
  const done = succeeded + failed;
  return { succeeded, failed, successRate: done === 0 ? null : succeeded / done };
}

export async function listApplicationSummaries(scope: Scope, q: ApplicationSummaryQuery) {
  const search = q.search ? q.search : undefined;
  const page = await paginate(q, "descending", "application", (p) =>
    db.application.findMany({
      where: {
        environmentId: scope.environmentId,
        internal: false,
        ...(scope.applicationId ? { id: scope.applicationId } : {}),
        ...(search
          ? { OR: [{ name: { contains: search, mode: "insensitive" as const } }, { uid: search }, { id: search }] }
          : {}),
        ...cursorWhere(p),
      },
      orderBy: { id: p.direction },
      take: p.take,
    }),
  );
  const counts = await deliveryCounts(page.rows.map((a) => a.id), new Date(Date.now() - DAY_MS));
  return toListResponse(page, (app) => ({
    ...serializeApplication(app),
    ...(counts.get(app.id) ?? { last24h: rate(0, 0), unfinished: { failing: 0, held: 0, capped: false } }),
  }));
}
export type ApplicationSummary = Awaited<ReturnType<typeof listApplicationSummaries>>["data"][number];

/**
 * $1: the page's application ids; $2: the id bound of the 24 h window; $3: UNFINISHED_COUNTED.
 * Exported for the EXPLAIN test.
 */
export const DELIVERY_COUNTS_SQL = `
  SELECT application_id,
         sum(succeeded)::int AS succeeded, sum(failed)::int AS failed,
         sum(failing)::int AS failing, sum(held)::int AS held, sum(counted)::int AS counted
    FROM (
      SELECT application_id,
             count(*) FILTER (WHERE status = 'succeeded') AS succeeded,
             count(*) FILTER (WHERE status = 'failed') AS failed,
             0 AS failing, 0 AS held, 0 AS counted
        FROM delivery
       WHERE application_id = ANY($1::text[]) AND status IN ('succeeded', 'failed') AND id >= $2
       GROUP BY application_id
      UNION ALL
      SELECT a.id, 0, 0, u.failing, u.held, u.counted
        FROM unnest($1::text[]) AS a(id)
        CROSS JOIN LATERAL (
          SELECT count(*) AS counted,
                 count(*) FILTER (WHERE ${retryingSql("x")}) AS failing,
                 count(*) FILTER (WHERE ${untriedSql("x")} AND e.state = 'active' AND e.circuit_state <> 'closed') AS held
            FROM (SELECT d.endpoint_id, d.status, d.attempt_count FROM delivery d
                   WHERE d.application_id = a.id AND d.status IN ('pending', 'sending')
                   LIMIT $3) x
            LEFT JOIN endpoint e ON e.id = x.endpoint_id
        ) u
    ) c
   GROUP BY application_id`;

async function deliveryCounts(appIds: string[], since: Date): Promise<Map<string, Summary>> {
  const out = new Map<string, Summary>();
  if (appIds.length === 0) return out;
  const rows = await query<{ application_id: string; succeeded: number; failed: number; failing: number; held: number; counted: number }>(
    "console-app-delivery-counts",
    DELIVERY_COUNTS_SQL,
    [appIds, idAtTime("delivery", since), UNFINISHED_COUNTED],
  );
  for (const r of rows) {
    const capped = r.counted >= UNFINISHED_COUNTED;
    out.set(r.application_id, { last24h: rate(r.succeeded, r.failed), unfinished: { failing: r.failing, held: r.held, capped } });
  }
  return out;
}
