import { z } from "zod";
import { ApplicationIn } from "../applications/schemas";
import { zChannel, zEventTypeName, zUidOf, zUniqueList } from "../http/fields";

export const DEFAULT_RETENTION_DAYS = 90;

export const MessageIn = z
  .object({
    eventType: zEventTypeName,
    payload: z.record(z.string(), z.unknown(), { error: "must be a JSON object" }),
    eventId: zUidOf("message").nullish(),
    channels: zUniqueList(zChannel).min(1).max(5, "at most 5 channels").nullish(),
    payloadRetentionPeriod: z.number().int().min(5).max(90).nullish(),
    /** Newer SDKs: retention in hours; rounded up to whole days. */
    payloadRetentionHours: z.number().int().min(1).max(90 * 24).nullish(),
    /** Creates the application (uid = the path value) when it does not exist yet. */
    application: ApplicationIn.nullish(),
    /** Herald extension: old values of the changed fields, sent as the envelope's `previous`. */
    previous: z.record(z.string(), z.unknown()).nullish(),
    /** Newer SDKs: accepted for compatibility; Herald does not filter by tags. */
    tags: zUniqueList(zChannel).max(5).nullish(),
    deliverAt: z
      .unknown()
      .refine((v) => v === undefined || v === null, "scheduled delivery is not supported by Herald: publish when the event happens")
      .optional(),
  })
  .transform(({ payloadRetentionHours, payloadRetentionPeriod, tags: _tags, deliverAt: _deliverAt, ...rest }) => ({
    ...rest,
    payloadRetentionPeriod:
      payloadRetentionPeriod ??
      (payloadRetentionHours ? Math.ceil(payloadRetentionHours / 24) : DEFAULT_RETENTION_DAYS),
  }));
export type MessageIn = z.infer<typeof MessageIn>;

export const EventExampleIn = z.object({
  eventType: zEventTypeName,
  /** Which of the schema's `examples` to send (0, the default, falls back to a derived one). */
  exampleIndex: z.number().int().min(0).max(1000).default(0),
  /**
   * Herald extension: send this payload instead of an example (the portal's "edit before
   * sending"). It must match the event type's schema; a mismatch is a 422 naming the field.
   */
  payload: z.record(z.string(), z.unknown(), { error: "must be a JSON object" }).nullish(),
});
