import { z } from "zod";
import { zMetadata, zUid, zUniqueList } from "../http/fields";
import { zHeaders } from "../endpoints/schemas";
import { isOperationalEventType, OPERATIONAL_EVENT_TYPES } from "./event-types";

// Request bodies of /api/v1/operational-webhook/endpoint (Svix's OperationalWebhookEndpoint*).

const zOperationalType = z
  .string()
  .refine(isOperationalEventType, `must be one of ${OPERATIONAL_EVENT_TYPES.join(", ")}`);
const zFilter = zUniqueList(zOperationalType).min(1, "must list at least one event type, or be omitted for all");
const zThrottle = z.number().int().min(1).max(65535);

const base = {
  url: z.string().min(1).max(65536),
  description: z.string().max(4096).default(""),
  uid: zUid.nullish(),
  disabled: z.boolean().default(false),
  filterTypes: zFilter.nullish(),
  metadata: zMetadata.default({}),
  rateLimit: zThrottle.nullish(),
  throttleRate: zThrottle.nullish(),
};

export const OperationalEndpointIn = z.object({ ...base, secret: z.string().max(200).nullish() });
export type OperationalEndpointIn = z.infer<typeof OperationalEndpointIn>;

export const OperationalEndpointUpdate = z.object(base);
export type OperationalEndpointUpdate = z.infer<typeof OperationalEndpointUpdate>;

export const OperationalEndpointPatch = z.object({
  url: z.string().min(1).max(65536).optional(),
  description: z.string().max(4096).optional(),
  uid: zUid.nullish(),
  disabled: z.boolean().optional(),
  filterTypes: zFilter.nullish(),
  metadata: zMetadata.optional(),
  rateLimit: z.number().int().min(0).max(65535).nullish(),
  throttleRate: z.number().int().min(0).max(65535).nullish(),
});
export type OperationalEndpointPatch = z.infer<typeof OperationalEndpointPatch>;

export const OperationalSecretIn = z.object({ key: z.string().max(200).nullish() }).default({});
export const OperationalHeadersIn = z.object({ headers: zHeaders });
