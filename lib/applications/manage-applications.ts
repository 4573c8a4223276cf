import { db } from "../db";
import { conflict, notFound } from "../http/errors";
import { hasPrefix, newId } from "../ids";
import { cursorWhere, paginate, toListResponse, type ListQuery } from "../http/pagination";
import { Prisma } from "../generated/prisma/client";
import type { Scope } from "../auth/principal";
import { findApplication } from "./find-application";
import type { ApplicationIn, ApplicationPatch } from "./schemas";
import { serializeApplication } from "./serialize";

const uniqueUid = (e: unknown) =>
  e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002"
    ? conflict("An application with this uid already exists")
    : e;

export async function createApplication(scope: Scope, input: ApplicationIn, getIfExists = false) {
  if (getIfExists && input.uid) {
    const existing = await db.application.findFirst({
      where: { environmentId: scope.environmentId, uid: input.uid, internal: false },
    });
    if (existing) return { created: false, app: serializeApplication(existing) };
  }
  try {
    const app = await db.application.create({
      data: {
        id: newId("application"),
        environmentId: scope.environmentId,
        name: input.name,
        uid: input.uid ?? null,
        metadata: input.metadata,
        throttleRate: input.throttleRate ?? input.rateLimit ?? null,
        ...(input.payloadFormat ? { payloadFormat: input.payloadFormat } : {}),
      },
    });
    return { created: true, app: serializeApplication(app) };
  } catch (e) {
    throw uniqueUid(e);
  }
}

export async function listApplications(scope: Scope, q: ListQuery) {
  const page = await paginate(q, "ascending", "application", (p) =>
    db.application.findMany({
      where: {
        environmentId: scope.environmentId,
        internal: false,
        ...(scope.applicationId ? { id: scope.applicationId } : {}),
        ...cursorWhere(p),
      },
      orderBy: { id: p.direction },
      take: p.take,
    }),
  );
  return toListResponse(page, serializeApplication);
}

/** PUT: replaces the application, creating it (uid = the path value) when it does not exist. */
export async function upsertApplication(scope: Scope, idOrUid: string, input: ApplicationIn) {
  const existing = await db.application.findFirst({
    where: { environmentId: scope.environmentId, internal: false, OR: [{ id: idOrUid }, { uid: idOrUid }] },
  });
  if (!existing) {
    // An id names an existing application; only a uid can name one to create.
    if (hasPrefix(idOrUid, "application")) throw notFound("Application");
    const uid = input.uid ?? idOrUid;
    const { app } = await createApplication(scope, { ...input, uid });
    return { created: true, app };
  }
  try {
    const app = await db.application.update({
      where: { id: existing.id },
      data: {
        name: input.name,
        // Omitting uid keeps it (the path may be the uid); null removes it.
        uid: input.uid === undefined ? existing.uid : input.uid,
        metadata: input.metadata,
        throttleRate: input.throttleRate ?? input.rateLimit ?? null,
        ...(input.payloadFormat ? { payloadFormat: input.payloadFormat } : {}),
      },
    });
    return { created: false, app: serializeApplication(app) };
  } catch (e) {
    throw uniqueUid(e);
  }
}

export async function patchApplication(scope: Scope, idOrUid: string, patch: ApplicationPatch) {
  const app = await findApplication(scope, idOrUid);
  const throttle = patch.throttleRate !== undefined ? patch.throttleRate : patch.rateLimit;
  try {
    const updated = await db.application.update({
      where: { id: app.id },
      data: {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.uid !== undefined ? { uid: patch.uid } : {}),
        ...(patch.metadata !== undefined ? { metadata: patch.metadata } : {}),
        ...(throttle !== undefined ? { throttleRate: throttle === 0 ? null : throttle } : {}),
        ...(patch.payloadFormat ? { payloadFormat: patch.payloadFormat } : {}),
      },
    });
    return serializeApplication(updated);
  } catch (e) {
    throw uniqueUid(e);
  }
}

export async function deleteApplication(scope: Scope, idOrUid: string) {
  const app = await findApplication(scope, idOrUid);
  await db.application.delete({ where: { id: app.id } });
}
