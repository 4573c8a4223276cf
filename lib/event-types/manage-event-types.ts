import { db } from "../db";
import { conflict, invalid, notFound } from "../http/errors";
import { newId } from "../ids";
import { cursorWhere, paginate, toListResponse, type ListQuery } from "../http/pagination";
import { Prisma } from "../generated/prisma/client";
import type { Scope } from "../auth/principal";
import { zCatalogName, type EventTypeIn, type EventTypePatch, type EventTypeUpdate } from "./schemas";
import { serializeEventType } from "./serialize";

const json = (v: unknown) => (v === null || v === undefined ? Prisma.DbNull : (v as Prisma.InputJsonValue));

export async function findEventType(scope: Scope, name: string) {
  const et = await db.eventType.findUnique({ where: { environmentId_name: { environmentId: scope.environmentId, name } } });
  if (!et) throw notFound("Event type");
  return et;
}

/** POST: adds an event type; an archived one of the same name is brought back with the new fields. */
export async function createEventType(scope: Scope, input: EventTypeIn) {
  const fields = {
    description: input.description,
    schemas: json(input.schemas),
    archived: input.archived,
    deprecated: input.deprecated,
    featureFlag: input.featureFlag ?? null,
  };
  const existing = await db.eventType.findUnique({
    where: { environmentId_name: { environmentId: scope.environmentId, name: input.name } },
  });
  if (existing && !existing.archived) throw conflict(`Event type ${input.name} already exists`);
  if (existing) return serializeEventType(await db.eventType.update({ where: { id: existing.id }, data: fields }));
  try {
    const et = await db.eventType.create({
      data: { id: newId("eventType"), environmentId: scope.environmentId, name: input.name, ...fields },
    });
    return serializeEventType(et);
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002")
      throw conflict(`Event type ${input.name} already exists`);
    throw e;
  }
}

export async function listEventTypes(
  scope: Scope,
  q: ListQuery & { include_archived: boolean; with_content: boolean },
) {
  const page = await paginate(q, "ascending", "name", (p) =>
    db.eventType.findMany({
      where: {
        environmentId: scope.environmentId,
        ...(q.include_archived ? {} : { archived: false }),
        ...cursorWhere(p, "name"),
      },
      orderBy: { name: p.direction },
      take: p.take,
    }),
  );
  return toListResponse(page, (et) => serializeEventType(et, q.with_content));
}

/** PUT: replaces the event type, creating it when missing. */
export async function upsertEventType(scope: Scope, name: string, input: EventTypeUpdate) {
  const existing = await db.eventType.findUnique({
    where: { environmentId_name: { environmentId: scope.environmentId, name } },
  });
  if (!existing) {
    const valid = zCatalogName.safeParse(name);
    if (!valid.success) throw invalid(["path", "event_type_name"], valid.error.issues[0]?.message ?? "is not a valid name");
    return { created: true, eventType: await createEventType(scope, { ...input, name }) };
  }
  const et = await db.eventType.update({
    where: { id: existing.id },
    data: {
      description: input.description,
      schemas: json(input.schemas),
      archived: input.archived,
      deprecated: input.deprecated,
      featureFlag: input.featureFlag ?? null,
    },
  });
  return { created: false, eventType: serializeEventType(et) };
}

export async function patchEventType(scope: Scope, name: string, patch: EventTypePatch) {
  const existing = await findEventType(scope, name);
  const et = await db.eventType.update({
    where: { id: existing.id },
    data: {
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(patch.schemas !== undefined ? { schemas: json(patch.schemas) } : {}),
      ...(patch.archived !== undefined ? { archived: patch.archived } : {}),
      ...(patch.deprecated !== undefined ? { deprecated: patch.deprecated } : {}),
      ...(patch.featureFlag !== undefined ? { featureFlag: patch.featureFlag } : {}),
    },
  });
  return serializeEventType(et);
}

/** Archives (the default: kept for history and existing filters) or, with expunge, deletes. */
export async function deleteEventType(scope: Scope, name: string, expunge: boolean) {
  const existing = await findEventType(scope, name);
  if (expunge) await db.eventType.delete({ where: { id: existing.id } });
  else await db.eventType.update({ where: { id: existing.id }, data: { archived: true } });
}

/** Names among `names` that are not in the environment's catalog (archived ones count as absent). */
export async function missingEventTypes(scope: Scope, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const found = await db.eventType.findMany({
    where: { environmentId: scope.environmentId, name: { in: names }, archived: false },
    select: { name: true },
  });
  const have = new Set(found.map((f) => f.name));
  return names.filter((n) => !have.has(n));
}
