import { db } from "../db";
import type { Principal, Scope } from "../auth/principal";
import { visibleFeatureFlags } from "../portal-access/capabilities";
import { examplePayload } from "../event-types/example-payload";

// The event catalog as the portal shows it: every event type the session may see (types behind a
// feature flag only with that flag), archived ones marked rather than hidden (an endpoint may
// still filter on them), each with its schemas and an example payload per version: the schema's
// own `examples` when it has them, otherwise one derived from the schema.

const MAX_EVENT_TYPES = 1000;

export async function portalCatalog(principal: Principal, scope: Scope) {
  const flags = visibleFeatureFlags(principal);
  const types = await db.eventType.findMany({
    where: {
      environmentId: scope.environmentId,
      ...(flags ? { OR: [{ featureFlag: null }, { featureFlag: { in: [...flags] } }] } : {}),
    },
    orderBy: { name: "asc" },
    take: MAX_EVENT_TYPES,
  });
  return {
    data: types.map((et) => {
      const schemas = (et.schemas as Record<string, Record<string, unknown>> | null) ?? {};
      const versions = Object.keys(schemas).sort((a, b) => Number(b) - Number(a));
      return {
        name: et.name,
        description: et.description,
        archived: et.archived,
        deprecated: et.deprecated,
        featureFlag: et.featureFlag,
        versions: versions.map((v) => ({
          version: v,
          schema: schemas[v]!,
          example: examplePayload(schemas, v),
          exampleSource: Array.isArray(schemas[v]!.examples) && (schemas[v]!.examples as unknown[]).length > 0 ? "schema" : "generated",
        })),
        updatedAt: et.updatedAt.toISOString(),
      };
    }),
  };
}
export type PortalCatalog = Awaited<ReturnType<typeof portalCatalog>>;
export type PortalEventType = PortalCatalog["data"][number];
