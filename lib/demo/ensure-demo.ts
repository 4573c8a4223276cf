import { db } from "../db";
import type { Scope } from "../auth/principal";
import { createApplication } from "../applications/manage-applications";
import { createEndpoint } from "../endpoints/manage-endpoints";
import { createEventType } from "../event-types/manage-event-types";
import { createPortalAccess } from "../portal-access/portal-tokens";
import { DEMO_EVENT_TYPES } from "./catalog";

export const DEMO_APP_UID = "demo";

/**
 * The demo endpoints, both on the loopback receiver that `npm run up` starts (scripts/demo.ts):
 * one receiving everything with an HMAC secret and the default retry policy, one receiving order
 * events signed with ed25519, with a custom header and its own retry schedule. Their paths are
 * how the receiver tells them apart.
 */
export const DEMO_ENDPOINTS = [
  { uid: "demo-receiver", path: "/webhook", description: "Demo receiver on this machine (started by npm run up)" },
  {
    uid: "demo-orders",
    path: "/orders",
    description: "Order events, ed25519-signed (demo)",
    filterTypes: ["order.created", "order.paid", "order.shipped"],
    signing: "ed25519" as const,
    headers: { "X-Demo-Tenant": "acme" },
    retrySchedule: [5, 30, 120],
  },
];

/** The demo application: catalog, endpoints on the local demo receiver, a fresh portal link. */
export async function ensureDemo(environmentId: string, receiverUrl: string) {
  const scope: Scope = { environmentId };
  for (const et of DEMO_EVENT_TYPES) {
    const exists = await db.eventType.findUnique({ where: { environmentId_name: { environmentId, name: et.name } } });
    if (!exists) await createEventType(scope, { ...et, archived: false, deprecated: et.deprecated ?? false });
  }
  const { app } = await createApplication(scope, { name: "Demo customer", uid: DEMO_APP_UID, metadata: {} }, true);
  const base = new URL(receiverUrl);
  for (const ep of DEMO_ENDPOINTS) {
    const url = new URL(ep.path, base).toString();
    const existing = await db.endpoint.findFirst({ where: { applicationId: app.id, uid: ep.uid } });
    // Keep the demo endpoints pointing at this run's receiver (its port follows PORT).
    if (existing) await db.endpoint.update({ where: { id: existing.id }, data: { url } });
    else {
      await createEndpoint(scope, app.id, {
        url,
        description: ep.description,
        uid: ep.uid,
        disabled: false,
        metadata: {},
        signing: ep.signing ?? "hmac_sha256",
        ...("filterTypes" in ep ? { filterTypes: ep.filterTypes, headers: ep.headers, retrySchedule: ep.retrySchedule } : {}),
      });
    }
  }
  const { url } = await createPortalAccess(scope, app.id, { featureFlags: [], readOnly: false });
  return { applicationId: app.id, portalUrl: url };
}
