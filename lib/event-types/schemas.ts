import { z } from "zod";
import { zFeatureFlag, zUniqueList } from "../http/fields";
import { checkSchema } from "./check-schema";

// Event type names follow resource.action ("invoice.paid"): segments of [a-zA-Z0-9_-] joined by dots.
export const EVENT_TYPE_NAME = /^[a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)+$/;
export const zCatalogName = z
  .string()
  .max(256, "must be at most 256 characters")
  .regex(
    EVENT_TYPE_NAME,
    "must be resource.action, e.g. invoice.paid: segments of a-z A-Z 0-9 _ - separated by dots",
  );

// A JSON Schema that a receiver's validator accepts (the same check the console runs as you
// type): a 422 at body.schemas.<version> names what is wrong, instead of a catalog that stores
// a schema nobody can validate against, and an example generator that chokes on it later.
const zJsonSchema = z.record(z.string(), z.unknown()).superRefine((schema, ctx) => {
  const check = checkSchema(schema);
  if (!check.ok) ctx.addIssue({ code: "custom", message: check.error });
});

// {"1": {<JSON schema>}, "2": {...}}: a schema per version.
const zSchemas = z.record(z.string().regex(/^\d+$/, "schema versions are whole numbers: \"1\", \"2\""), zJsonSchema);

// Newer SDKs send `featureFlags` (a list); Herald keeps one flag per event type, like the spec.
const zFeatureFlags = zUniqueList(zFeatureFlag).max(1, "Herald supports one feature flag per event type").nullish();

/** Folds `featureFlags: [x]` into `featureFlag: x` (featureFlag wins when both are sent). */
function oneFlag<T extends { featureFlag?: string | null | undefined; featureFlags?: string[] | null | undefined }>(v: T) {
  const { featureFlags, ...rest } = v;
  if (rest.featureFlag !== undefined || featureFlags === undefined) return rest;
  return { ...rest, featureFlag: featureFlags?.[0] ?? null };
}

const fields = {
  description: z.string().max(10_000),
  schemas: zSchemas.nullish(),
  archived: z.boolean().default(false),
  deprecated: z.boolean().default(false),
  featureFlag: zFeatureFlag.nullish(),
  featureFlags: zFeatureFlags,
};

export const EventTypeIn = z.object({ name: zCatalogName, ...fields }).transform(oneFlag);
export type EventTypeIn = z.infer<typeof EventTypeIn>;

export const EventTypeUpdate = z.object(fields).transform(oneFlag);
export type EventTypeUpdate = z.infer<typeof EventTypeUpdate>;

export const EventTypePatch = z
  .object({
    description: z.string().max(10_000).optional(),
    schemas: zSchemas.nullish(),
    archived: z.boolean().optional(),
    deprecated: z.boolean().optional(),
    featureFlag: zFeatureFlag.nullish(),
    featureFlags: zFeatureFlags,
  })
  .transform(oneFlag);
export type EventTypePatch = z.infer<typeof EventTypePatch>;
