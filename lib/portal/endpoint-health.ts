import { db } from "../db";
import { idAtTime } from "../ids";
import type { Scope } from "../auth/principal";
import { findApplication } from "../applications/find-application";

// Success rate and an hourly sparkline per endpoint over the last 24 hours, from the attempts
// (each HTTP try counts: a delivery that succeeded on its third try shows two failures). One
// aggregate over the (application_id, id) index, the time window being an id range.

export const HEALTH_WINDOW_HOURS = 24;
const HOUR_MS = 3600_000;

type Bucket = { success: number; fail: number };

export async function endpointHealth(scope: Scope, appIdOrUid: string, now = new Date()) {
  const app = await findApplication(scope, appIdOrUid);
  // Whole hours, so the sparkline's buckets line up with the clock.
  const end = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS;
  const start = end - HEALTH_WINDOW_HOURS * HOUR_MS;
  const rows = await db.$queryRaw<{ endpoint_id: string; hour: bigint; success: bigint; fail: bigint }[]>`
    SELECT endpoint_id,
           floor(extract(epoch from created_at) / 3600)::bigint AS hour,
           count(*) FILTER (WHERE status = 'success') AS success,
           count(*) FILTER (WHERE status = 'fail') AS fail
    FROM attempt
    WHERE application_id = ${app.id} AND id >= ${idAtTime("attempt", new Date(start))}
    GROUP BY 1, 2`;

  const byEndpoint = new Map<string, Bucket[]>();
  for (const r of rows) {
    const index = Number(r.hour) - start / HOUR_MS;
    if (index < 0 || index >= HEALTH_WINDOW_HOURS) continue;
    let buckets = byEndpoint.get(r.endpoint_id);
    if (!buckets) {
      buckets = Array.from({ length: HEALTH_WINDOW_HOURS }, () => ({ success: 0, fail: 0 }));
      byEndpoint.set(r.endpoint_id, buckets);
    }
    buckets[index]!.success += Number(r.success);
    buckets[index]!.fail += Number(r.fail);
  }
  return {
    windowStart: new Date(start).toISOString(),
    windowHours: HEALTH_WINDOW_HOURS,
    data: [...byEndpoint].map(([endpointId, buckets]) => {
      const success = buckets.reduce((n, b) => n + b.success, 0);
      const fail = buckets.reduce((n, b) => n + b.fail, 0);
      return { endpointId, success, fail, successRate: success + fail > 0 ? success / (success + fail) : null, buckets };
    }),
  };
}
export type EndpointHealth = Awaited<ReturnType<typeof endpointHealth>>;
