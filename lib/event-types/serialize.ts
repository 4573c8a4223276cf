import type { EventType } from "../generated/prisma/client";

export function serializeEventType(et: EventType, withContent = true) {
  return {
    name: et.name,
    description: et.description,
    archived: et.archived,
    deprecated: et.deprecated,
    featureFlag: et.featureFlag,
    featureFlags: et.featureFlag ? [et.featureFlag] : null,
    schemas: withContent ? ((et.schemas as Record<string, unknown> | null) ?? null) : null,
    createdAt: et.createdAt.toISOString(),
    updatedAt: et.updatedAt.toISOString(),
  };
}
export type EventTypeOut = ReturnType<typeof serializeEventType>;
