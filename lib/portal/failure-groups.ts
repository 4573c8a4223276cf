import { db } from "../db";
import type { Scope } from "../auth/principal";
import { findApplication } from "../applications/find-application";

// Failures as incidents to investigate rather than rows in a queue: dead-lettered deliveries and
// deliveries that are failing (last attempt failed, retry scheduled), grouped by endpoint and the
// last HTTP status (0 = no response: timeout, refused, DNS, TLS…), with counts and when the
// group was first and last seen. Read through the (application_id, status, id) index.

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
