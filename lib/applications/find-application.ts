import { db } from "../db";
import { notFound } from "../http/errors";
import type { Scope } from "../auth/principal";

/** An application of the scope by id or uid; 404 for anything else, including other tenants'. */
export async function findApplication(scope: Scope, idOrUid: string) {
  const app = await db.application.findFirst({
    where: {
      environmentId: scope.environmentId,
      internal: false,
      OR: [{ id: idOrUid }, { uid: idOrUid }],
      ...(scope.applicationId ? { id: scope.applicationId } : {}),
    },
  });
  if (!app) throw notFound("Application");
  return app;
}
