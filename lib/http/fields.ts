import { z } from "zod";
import { hasPrefix, ID_PREFIXES, type IdKind } from "../ids";

// Field rules shared by the API's request schemas (from the Svix OpenAPI document).

const SAFE = /^[a-zA-Z0-9\-_.]+$/;

export const zUid = z.string().min(1).max(256).regex(SAFE, "may only contain a-z A-Z 0-9 - _ .");
/**
 * A uid (or eventId) that can stand in for an id in paths: it must not look like an id of that
 * kind, or `GET /app/{app_id}` could not tell the two apart.
 */
export const zUidOf = (kind: IdKind) =>
  zUid.refine((s) => !hasPrefix(s, kind), `must not look like a Herald id (${ID_PREFIXES[kind]}_…)`);
/**
 * An integer in [min, max], with one message for a value out of range: the upper bound is checked
 * first and stops there, where zod would also add its own "within the safe integer range" one.
 * `number` is z.number() or, for query strings, z.coerce.number().
 */
export const zIntIn = (min: number, max: number, number: z.ZodNumber | z.ZodCoercedNumber = z.number()) =>
  number.max(max, { message: `must be at most ${max}`, abort: true }).int().min(min, `must be at least ${min}`);
/** PostgreSQL `integer` columns. */
export const zInt32 = z.number().int().max(2_147_483_647);
export const zEventTypeName = z
  .string()
  .min(1, "must not be empty")
  .max(256)
  .regex(SAFE, "may only contain a-z A-Z 0-9 - _ . (use resource.action, e.g. invoice.paid)");
export const zChannel = z.string().min(1).max(128).regex(SAFE, "may only contain a-z A-Z 0-9 - _ .");
export const zMetadata = z.record(z.string(), z.string());
export const zFeatureFlag = z.string().min(1).max(256).regex(SAFE);
/** Path parameter: an id or a uid. */
export const zIdOrUid = zUid;

export const zUniqueList = <T extends z.ZodType<string>>(item: T) =>
  z.array(item).refine((xs) => new Set(xs).size === xs.length, "must not contain duplicates");

export const zDateTime = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time" }).transform((s) => new Date(s));

/** A boolean query parameter: true/false/1/0. */
export const zBool = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((v) => v === true || v === "true" || v === "1");

/** A list in a query string: repeated keys, `key[]`, or comma-separated (what the Svix SDKs send). */
export const zList = (item: z.ZodType<string, string>) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v) => [v].flat().flatMap((s) => s.split(",")).filter((s) => s !== ""))
    .pipe(z.array(item));
