import { db } from "../db";
import type { Scope } from "../auth/principal";
import { findApplication } from "../applications/find-application";

// The portal's banner: the application's endpoints that are failing (what the members were told,
// endpoint.notice_state) or disabled by Herald, with since when and why. Paused endpoints (a
// person's choice) are not alerts.

export async function endpointAlerts(scope: Scope, appIdOrUid: string) {
  const app = await findApplication(scope, appIdOrUid);
  const rows = await db.endpoint.findMany({
    where: { applicationId: app.id, OR: [{ state: "disabled" }, { state: "active", noticeState: "failing" }] },
    select: { id: true, uid: true, url: true, description: true, state: true, disabledReason: true, stateChangedAt: true, failingSince: true, noticeChangedAt: true },
    orderBy: { id: "asc" },
    take: 100,
  });
  return {
    data: rows.map((e) => ({
      endpointId: e.id,
      uid: e.uid,
      url: e.url,
      description: e.description,
      kind: e.state === "disabled" ? ("disabled" as const) : ("failing" as const),
      since: (e.state === "disabled" ? e.stateChangedAt : (e.failingSince ?? e.noticeChangedAt))?.toISOString() ?? null,
      reason: e.state === "disabled" ? e.disabledReason : null,
    })),
  };
}
export type EndpointAlerts = Awaited<ReturnType<typeof endpointAlerts>>;
