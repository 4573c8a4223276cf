import { db } from "../db";
import { idAtTime } from "../ids";
import { query } from "../sql";
import type { Scope } from "../auth/principal";
import { rate, type DeliveryRate } from "../applications/application-summaries";

// The console's overview of one environment: deliveries of the last hour and day by outcome (and
// per hour, for the chart), what is waiting, what is dead, running tasks and the endpoints that
// failed most. Every count reads delivery/attempt through their (application_id, status, id)
// indexes: the environment's applications are the outer side, time bounds are id bounds, and the
// hour of a row is its id's bucket among 24 hourly id thresholds (width_bucket), so no heap reads
// of created_at are needed.

const HOUR_MS = 3600_000;
const HOURS = 24;
export const TOP_FAILING = 10;

export const OUTCOMES = ["succeeded", "failed", "pending", "sending", "canceled"] as const;
export type Outcome = (typeof OUTCOMES)[number];
type Counts = Record<Outcome, number>;

const zero = (): Counts => ({ succeeded: 0, failed: 0, pending: 0, sending: 0, canceled: 0 });

const APPS = `SELECT id FROM application WHERE environment_id = $1 AND internal = false`;

export async function environmentOverview(scope: Scope, now = new Date()) {
  const start = now.getTime() - HOURS * HOUR_MS;
  const thresholds = Array.from({ length: HOURS }, (_, i) => idAtTime("delivery", new Date(start + i * HOUR_MS)));

  const [buckets, backlog, failing, runningTasks] = await Promise.all([
    query<{ bucket: number; status: Outcome; n: number }>(
      "console-overview-hours",
      `SELECT width_bucket(d.id, $2::text[]) AS bucket, d.status::text AS status, count(*)::int AS n
         FROM delivery d
        WHERE d.application_id IN (${APPS}) AND d.id >= $3
        GROUP BY 1, 2`,
      [scope.environmentId, thresholds, thresholds[0]],
    ),
    query<{ waiting: number; dead: number }>(
      "console-overview-backlog",
      `SELECT count(*) FILTER (WHERE status IN ('pending', 'sending'))::int AS waiting,
              count(*) FILTER (WHERE status = 'failed')::int AS dead
         FROM delivery
        WHERE application_id IN (${APPS}) AND status IN ('pending', 'sending', 'failed')`,
      [scope.environmentId],
    ),
    query<{ endpoint_id: string; failed: number; succeeded: number }>(
      "console-overview-failing",
      `SELECT endpoint_id,
              count(*) FILTER (WHERE status = 'fail')::int AS failed,
              count(*) FILTER (WHERE status = 'success')::int AS succeeded
         FROM attempt
        WHERE application_id IN (${APPS}) AND id >= $2
        GROUP BY endpoint_id
       HAVING count(*) FILTER (WHERE status = 'fail') > 0
        ORDER BY failed DESC, endpoint_id
        LIMIT ${TOP_FAILING}`,
      [scope.environmentId, idAtTime("attempt", new Date(start))],
    ),
    db.task.count({ where: { environmentId: scope.environmentId, status: { in: ["pending", "running"] } } }),
  ]);

  // width_bucket: 1..HOURS for the hours oldest → newest (0 cannot occur: id >= the first threshold).
  const hours = thresholds.map((_, i) => ({ start: new Date(start + i * HOUR_MS).toISOString(), ...zero() }));
  const lastDay = zero();
  for (const b of buckets) {
    const h = hours[b.bucket - 1];
    if (!h) continue;
    h[b.status] += b.n;
    lastDay[b.status] += b.n;
  }
  const lastHour: Counts = { ...zero(), ...pick(hours[HOURS - 1]) };

  const endpoints = await db.endpoint.findMany({
    where: { id: { in: failing.map((f) => f.endpoint_id) }, environmentId: scope.environmentId },
    select: { id: true, url: true, state: true, disabledReason: true, circuitState: true, applicationId: true, application: { select: { name: true } } },
  });
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  const topFailing = failing.flatMap((f) => {
    const e = byId.get(f.endpoint_id);
    if (!e) return [];
    const r: DeliveryRate = rate(f.succeeded, f.failed);
    return [
      {
        endpointId: e.id,
        url: e.url,
        state: e.state,
        disabledReason: e.disabledReason,
        circuitState: e.circuitState,
        applicationId: e.applicationId,
        applicationName: e.application.name,
        attempts: r,
      },
    ];
  });

  return {
    generatedAt: now.toISOString(),
    lastHour: { ...lastHour, total: OUTCOMES.reduce((n, k) => n + lastHour[k], 0), successRate: rate(lastHour.succeeded, lastHour.failed).successRate },
    lastDay: { ...lastDay, total: OUTCOMES.reduce((n, k) => n + lastDay[k], 0), successRate: rate(lastDay.succeeded, lastDay.failed).successRate },
    hours,
    waiting: backlog[0]?.waiting ?? 0,
    deadLetters: backlog[0]?.dead ?? 0,
    runningTasks,
    topFailing,
  };
}
export type EnvironmentOverview = Awaited<ReturnType<typeof environmentOverview>>;

function pick(h: (Counts & { start: string }) | undefined): Counts {
  if (!h) return zero();
  return { succeeded: h.succeeded, failed: h.failed, pending: h.pending, sending: h.sending, canceled: h.canceled };
}
