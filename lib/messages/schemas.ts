import { z } from "zod";
import { ApplicationIn } from "../applications/schemas";
import { zChannel, zEventTypeName, zUid, zUniqueList } from "../http/fields";

export const MessageIn = z.object({
  eventType: zEventTypeName,
  payload: z.record(z.string(), z.unknown(), { error: "must be a JSON object" }),
  eventId: zUid.nullish(),
  channels: zUniqueList(zChannel).min(1).max(5, "at most 5 channels").nullish(),
  payloadRetentionPeriod: z.number().int().min(5).max(90).default(90),
  /** Creates the application (uid = the path value) when it does not exist yet. */
  application: ApplicationIn.nullish(),
  /** Herald extension: old values of the changed fields, sent as the envelope's `previous`. */
  previous: z.record(z.string(), z.unknown()).nullish(),
});
export type MessageIn = z.infer<typeof MessageIn>;
