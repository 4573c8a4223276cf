import { db } from "../db";
import { query } from "../sql";
import { UNFINISHED_COUNTED, untriedSql } from "./delivery-status";
import { env } from "../env";
import type { Scope } from "../auth/principal";
import { findApplication } from "../applications/find-application";
import { nextProbeAt } from "../delivery/circuit-breaker";

// Failures as incidents to investigate rather than rows in a queue: dead-lettered deliveries and
// deliveries that are failing (last attempt failed, retry scheduled), grouped by endpoint and the
// last HTTP status (0 = no response: timeout, refused, DNS, TLS…), with counts and when the
// group was first and last seen. Read through the (application_id, status, id) index.
//
// Beside the groups, per endpoint whose circuit is open: the deliveries held behind it (not tried
// yet, so they have no status code to be grouped by; the log says "circuit open" for them) and
// when the circuit's next probe is due, the time they wait for. The same notions of failing and
// held as the console's application list (lib/applications/application-summaries.ts).

const MAX_GROUPS = 500;

export async function failureGroups(scope: Scope, appIdOrUid: string) {
  const app = await findApplication(scope, appIdOrUid);
  const rows = await db.$queryRaw<
    {
      endpoint_id: string;
      status_code: number;
      dead: bigint;
      failing: bigint;
      first_seen: Date;
      last_seen: Date;
      latest_delivery: string;
    }[]
  >`
    SELECT endpoint_id,
           coalesce(last_status_code, 0) AS status_code,
           count(*) FILTER (WHERE status = 'failed') AS dead,
           count(*) FILTER (WHERE status <> 'failed') AS failing,
           min(coalesce(last_attempt_at, created_at)) AS first_seen,
           max(coalesce(last_attempt_at, created_at)) AS last_seen,
           max(id) AS latest_delivery
    FROM delivery
    WHERE application_id = ${app.id}
      AND (status = 'failed' OR (status IN ('pending', 'sending') AND attempt_count > 0))
    GROUP BY 1, 2
    ORDER BY max(coalesce(last_attempt_at, created_at)) DESC
    LIMIT ${MAX_GROUPS}`;
  const endpoints = await db.endpoint.findMany({
    where: { applicationId: app.id, id: { in: [...new Set(rows.map((r) => r.endpoint_id))] } },
    select: { id: true, uid: true, url: true, state: true, disabledReason: true, circuitState: true },
  });
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  return {
    held: await heldBehindCircuits(app.id),
    data: rows.map((r) => ({
      endpointId: r.endpoint_id,
      endpoint: byId.get(r.endpoint_id) ?? null,
      statusCode: r.status_code,
      deadLettered: Number(r.dead),
      failing: Number(r.failing),
      firstSeen: r.first_seen.toISOString(),
      lastSeen: r.last_seen.toISOString(),
      latestDeliveryId: r.latest_delivery,
    })),
  };
}
export type FailureGroups = Awaited<ReturnType<typeof failureGroups>>;

/** Per active endpoint with an open circuit: its deliveries not tried yet, and the next probe. */
async function heldBehindCircuits(appId: string) {
  const open = await db.endpoint.findMany({
    where: { applicationId: appId, state: "active", circuitState: { not: "closed" } },
    select: { id: true, uid: true, url: true, state: true, disabledReason: true, circuitState: true, circuitOpenedAt: true, circuitProbeAt: true, failingSince: true },
    orderBy: { id: "asc" },
  });
  if (open.length === 0) return [];
  // Through the (endpoint_id, status, id) index, at most UNFINISHED_COUNTED each.
  const counts = await query<{ endpoint_id: string; held: number }>(
    "portal-held-behind-circuits",
    `SELECT e.id AS endpoint_id, h.held
       FROM unnest($1::text[]) AS e(id)
       CROSS JOIN LATERAL (
         SELECT count(*)::int AS held
           FROM (SELECT 1 FROM delivery d
                  WHERE d.endpoint_id = e.id AND ${untriedSql("d")}
                  LIMIT $2) x
       ) h`,
    [open.map((e) => e.id), UNFINISHED_COUNTED],
  );
  const held = new Map(counts.map((c) => [c.endpoint_id, c.held]));
  const cooldownMs = env().HERALD_CIRCUIT_COOLDOWN_MS;
  return open.flatMap(({ circuitOpenedAt, circuitProbeAt, failingSince, ...endpoint }) => {
    const n = held.get(endpoint.id) ?? 0;
    if (n === 0) return [];
    const probe = nextProbeAt({ circuitState: endpoint.circuitState, circuitOpenedAt, circuitProbeAt, failingSince }, cooldownMs);
    return [
      {
        endpointId: endpoint.id,
        endpoint,
        held: n,
        /** `held` reached UNFINISHED_COUNTED, where counting stops: there are at least that many. */
        heldCapped: n >= UNFINISHED_COUNTED,
        circuitOpenedAt: circuitOpenedAt?.toISOString() ?? null,
        /** In the past while a probe may go now or is under way (half open). */
        nextProbeAt: probe?.toISOString() ?? null,
      },
    ];
  });
}
