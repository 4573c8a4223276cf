import { z } from "zod";
import type { Scope } from "../auth/principal";
import { db } from "../db";
import { conflict, invalid } from "../http/errors";
import { zChannel, zEventTypeName, zUidOf, zUniqueList } from "../http/fields";
import { findApplication } from "../applications/find-application";
import { findEndpoint } from "../endpoints/find-endpoint";
import { createInternalEndpoint } from "../endpoints/create-internal-endpoint";
import { visibleSecret } from "../endpoints/endpoint-secrets";
import { serializeEndpoint } from "../endpoints/serialize";
import { setEndpointState } from "../endpoints/set-endpoint-state";
import { missingEventTypes } from "../event-types/manage-event-types";
import { transportKind } from "../delivery/transports/endpoint-kind";

// POST /api/v1/app/{app}/listen: the development endpoint `herald listen` forwards from. One per
// uid (default "herald-listen"): running the CLI again reuses it (same id, same secret), with the
// event types and channels of this run, and switches it back on if it was paused or disabled.

export const DEFAULT_LISTEN_UID = "herald-listen";

export const ListenEndpointIn = z.object({
  uid: zUidOf("endpoint").default(DEFAULT_LISTEN_UID),
  filterTypes: zUniqueList(zEventTypeName).nullish().describe("Event types to receive; null or absent for all"),
  channels: zUniqueList(zChannel).max(10).nullish(),
});
export type ListenEndpointIn = z.infer<typeof ListenEndpointIn>;

export async function ensureListenEndpoint(scope: Scope, appIdOrUid: string, input: ListenEndpointIn) {
  const app = await findApplication(scope, appIdOrUid);
  const eventTypes = input.filterTypes ?? [];
  const missing = await missingEventTypes(scope, eventTypes);
  if (missing.length > 0) throw invalid(["body", "filterTypes"], `unknown event type(s): ${missing.join(", ")}`);
  const channels = input.channels ?? [];

  let ep = await db.endpoint.findFirst({ where: { applicationId: app.id, uid: input.uid } });
  let created = false;
  if (ep && transportKind(ep.url) !== "listen")
    throw conflict(`The endpoint with uid ${input.uid} is not a herald listen endpoint; choose another --name`);
  if (ep) {
    ep = await db.endpoint.update({ where: { id: ep.id }, data: { eventTypes, channels } });
    if (ep.state !== "active") ep = (await setEndpointState(ep.id, "active")) ?? ep;
  } else {
    ep = await createInternalEndpoint("listen", {
      environmentId: app.environmentId,
      applicationId: app.id,
      uid: input.uid,
      description: "herald listen: forwards to a developer's machine",
      eventTypes,
      channels,
    });
    created = true;
  }
  const fresh = await db.endpoint.findUniqueOrThrow({ where: { id: ep.id } });
  return { created, endpoint: serializeEndpoint(fresh), secret: visibleSecret(fresh), appId: app.id };
}

/** A `herald listen` endpoint in scope; 404 when not found, 409 when it is another kind. */
export async function findListenEndpoint(scope: Scope, app: string, endpoint: string) {
  const { endpoint: ep } = await findEndpoint(scope, app, endpoint);
  if (transportKind(ep.url) !== "listen")
    throw conflict("This endpoint is not a herald listen endpoint", "not_a_listen_endpoint");
  return ep;
}
