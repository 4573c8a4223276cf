import { z } from "zod";
import { db } from "../db";
import { idAtTime } from "../ids";
import { query } from "../sql";
import { cursorWhere, listQuery, paginate, toListResponse } from "../http/pagination";
import type { Scope } from "../auth/principal";
import { serializeApplication } from "./serialize";

// The console's list of applications: search by name (substring), uid or id, newest first, with
// each one's delivery success rate over the last 24 hours. One keyset-paginated read of the page
// (index application(environment_id, id)) and one grouped count for the whole page (index
// delivery(application_id, status, id), the time bound being an id bound) — never a query per row.

export const ApplicationSummaryQuery = listQuery.extend({
  search: z.string().trim().max(256, "is longer than 256 characters").optional(),
});
export type ApplicationSummaryQuery = z.infer<typeof ApplicationSummaryQuery>;

const DAY_MS = 24 * 3600_000;

export type DeliveryRate = { succeeded: number; failed: number; successRate: number | null };

export function rate(succeeded: number, failed: number): DeliveryRate {
  const done = succeeded + failed;
  return { succeeded, failed, successRate: done === 0 ? null : succeeded / done };
}

export async function listApplicationSummaries(scope: Scope, q: ApplicationSummaryQuery) {
  const search = q.search ? q.search : undefined;
  const page = await paginate(q, "descending", "id", (p) =>
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
  const rates = await successRates(page.rows.map((a) => a.id), new Date(Date.now() - DAY_MS));
  return toListResponse(page, (app) => ({
    ...serializeApplication(app),
    last24h: rates.get(app.id) ?? rate(0, 0),
  }));
}
export type ApplicationSummary = Awaited<ReturnType<typeof listApplicationSummaries>>["data"][number];

/** Finished deliveries (succeeded or dead) created since `since`, per application. */
async function successRates(appIds: string[], since: Date): Promise<Map<string, DeliveryRate>> {
  const out = new Map<string, DeliveryRate>();
  if (appIds.length === 0) return out;
  const rows = await query<{ application_id: string; succeeded: number; failed: number }>(
    "console-app-success-rates",
    `SELECT application_id,
            count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
            count(*) FILTER (WHERE status = 'failed')::int AS failed
       FROM delivery
      WHERE application_id = ANY($1::text[]) AND status IN ('succeeded', 'failed') AND id >= $2
      GROUP BY application_id`,
    [appIds, idAtTime("delivery", since)],
  );
  for (const r of rows) out.set(r.application_id, rate(r.succeeded, r.failed));
  return out;
}
