import { z } from "zod";

// Field rules shared by the API's request schemas (from the Svix OpenAPI document).

const SAFE = /^[a-zA-Z0-9\-_.]+$/;

export const zUid = z.string().min(1).max(256).regex(SAFE, "may only contain a-z A-Z 0-9 - _ .");
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
