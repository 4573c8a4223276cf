import { z } from "zod";
import { zIntIn, zMetadata, zUidOf } from "../http/fields";

export const ApplicationIn = z.object({
  name: z.string().min(1, "must not be empty").max(256),
  uid: zUidOf("application").nullish(),
  metadata: zMetadata.default({}),
  throttleRate: zIntIn(1, 65535).nullish(),
  rateLimit: zIntIn(1, 65535).nullish(),
  /** Herald extension: "raw" sends the published payload verbatim instead of the envelope. */
  payloadFormat: z.enum(["envelope", "raw"]).optional(),
});
export type ApplicationIn = z.infer<typeof ApplicationIn>;

export const ApplicationPatch = z.object({
  name: z.string().min(1).max(256).optional(),
  uid: zUidOf("application").nullish(),
  metadata: zMetadata.optional(),
  throttleRate: zIntIn(0, 65535).nullish(),
  rateLimit: zIntIn(0, 65535).nullish(),
  payloadFormat: z.enum(["envelope", "raw"]).optional(),
});
export type ApplicationPatch = z.infer<typeof ApplicationPatch>;
