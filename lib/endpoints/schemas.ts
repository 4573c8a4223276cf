import { z } from "zod";
import { zChannel, zEventTypeName, zMetadata, zUidOf, zUniqueList, zInt32, zIntIn } from "../http/fields";

// Request bodies of the endpoint API. Both SDK generations' names are accepted
// (eventTypes/filterTypes, throttleRate/rateLimit); Herald extensions are marked.

export const RETRY_SCHEDULE_BOUNDS = { maxAttempts: 20, minDelaySeconds: 1, maxDelaySeconds: 24 * 3600 };

const zEventTypes = zUniqueList(zEventTypeName).min(1, "must list at least one event type, or be omitted for all");
const zChannels = zUniqueList(zChannel).min(1).max(10, "at most 10 channels");
const zThrottle = z.number().int().min(1).max(65535);
export const zRetrySchedule = z
  .array(z.number().int().min(RETRY_SCHEDULE_BOUNDS.minDelaySeconds).max(RETRY_SCHEDULE_BOUNDS.maxDelaySeconds))
  .max(RETRY_SCHEDULE_BOUNDS.maxAttempts - 1, `at most ${RETRY_SCHEDULE_BOUNDS.maxAttempts - 1} retries`);
// `whsec_` + base64 of 24-64 bytes; checked in full by lib/signing/secrets.secretProblem.
const zSecret = z.string().max(200);
export const zHeaders = z.record(z.string().min(1).max(256), z.string().max(4096));

const base = {
  url: z.string().min(1).max(65536),
  description: z.string().max(4096).default(""),
  uid: zUidOf("endpoint").nullish(),
  version: zInt32.min(1).nullish(),
  disabled: z.boolean().default(false),
  eventTypes: zEventTypes.nullish(),
  filterTypes: zEventTypes.nullish(),
  channels: zChannels.nullish(),
  metadata: zMetadata.default({}),
  throttleRate: zThrottle.nullish(),
  rateLimit: zThrottle.nullish(),
  // Herald extensions.
  headers: zHeaders.optional(),
  retrySchedule: zRetrySchedule.optional(),
};

export const EndpointIn = z.object({
  ...base,
  secret: zSecret.nullish(),
  /** Herald extension: "ed25519" signs with an asymmetric key (v1a). */
  signing: z.enum(["hmac_sha256", "ed25519"]).default("hmac_sha256"),
});
export type EndpointIn = z.infer<typeof EndpointIn>;

export const EndpointUpdate = z.object(base);
export type EndpointUpdate = z.infer<typeof EndpointUpdate>;

export const EndpointPatch = z.object({
  url: z.string().min(1).max(65536).optional(),
  description: z.string().max(4096).optional(),
  uid: zUidOf("endpoint").nullish(),
  version: zInt32.min(1).nullish(),
  disabled: z.boolean().optional(),
  eventTypes: zUniqueList(zEventTypeName).nullish(),
  filterTypes: zUniqueList(zEventTypeName).nullish(),
  channels: zUniqueList(zChannel).max(10).nullish(),
  metadata: zMetadata.optional(),
  throttleRate: zIntIn(0, 65535).nullish(),
  rateLimit: zIntIn(0, 65535).nullish(),
  retrySchedule: zRetrySchedule.optional(),
  /** Replaces the signing secret at once (no grace period; use secret/rotate for that). */
  secret: zSecret.nullish(),
});
export type EndpointPatch = z.infer<typeof EndpointPatch>;

export const EndpointHeadersIn = z.object({ headers: zHeaders });
export const EndpointHeadersPatchIn = z.object({
  headers: z.record(z.string().min(1).max(256), z.string().max(4096).nullable()),
});

export const EndpointSecretRotateIn = z.object({
  key: zSecret.nullish(),
  /** Herald extension (Svix later added the same): how long the previous secret keeps signing. */
  gracePeriodSeconds: z.number().int().min(0).max(7 * 24 * 3600).nullish(),
});
