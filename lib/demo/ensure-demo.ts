import { db } from "../db";
import type { Scope } from "../auth/principal";
import { createApplication } from "../applications/manage-applications";
import { createEndpoint } from "../endpoints/manage-endpoints";
import { createEventType } from "../event-types/manage-event-types";
import { createPortalAccess } from "../portal-access/portal-tokens";
import { DEMO_EVENT_TYPES } from "./catalog";

export const DEMO_APP_UID = "demo";

/** The demo application: catalog, one endpoint on the local demo receiver, a fresh portal link. */
export async function ensureDemo(environmentId: string, receiverUrl: string) {
  const scope: Scope = { environmentId };
  for (const et of DEMO_EVENT_TYPES) {
    const exists = await db.eventType.findUnique({ where: { environmentId_name: { environmentId, name: et.name } } });
    if (!exists) await createEventType(scope, { ...et, archived: false, deprecated: false });
  }
  const { app } = await createApplication(scope, { name: "Demo customer", uid: DEMO_APP_UID, metadata: {} }, true);
  const endpoints = await db.endpoint.count({ where: { applicationId: app.id } });
  if (endpoints === 0) {
    await createEndpoint(scope, app.id, {
      url: receiverUrl,
      description: "Demo receiver on this machine (started by npm run up)",
      uid: "demo-receiver",
      disabled: false,
      metadata: {},
      signing: "hmac_sha256",
    });
  } else {
    // Keep the demo endpoint pointing at this run's receiver (the port follows PORT).
    await db.endpoint.updateMany({ where: { applicationId: app.id, uid: "demo-receiver" }, data: { url: receiverUrl } });
  }
  const { url } = await createPortalAccess(scope, app.id, { featureFlags: [], readOnly: false });
  return { applicationId: app.id, portalUrl: url };
}
