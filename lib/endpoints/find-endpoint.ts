import { db } from "../db";
import { notFound } from "../http/errors";
import type { Scope } from "../auth/principal";
import { findApplication } from "../applications/find-application";

/** An endpoint of an application in scope, by id or uid; 404 otherwise. */
export async function findEndpoint(scope: Scope, appIdOrUid: string, endpointIdOrUid: string) {
  const app = await findApplication(scope, appIdOrUid);
  const endpoint = await db.endpoint.findFirst({
    where: { applicationId: app.id, OR: [{ id: endpointIdOrUid }, { uid: endpointIdOrUid }] },
  });
  if (!endpoint) throw notFound("Endpoint");
  return { app, endpoint };
}
