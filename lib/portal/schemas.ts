import { z } from "zod";
import { listQuery } from "../http/pagination";
import { eventTypesFilter, orderedRange, timeRange } from "../http/params";
import { zEventTypeName, zIdOrUid } from "../http/fields";
import { LOG_STATUSES } from "./delivery-status";

/** A payload search term: 3 characters at least, the shortest the trigram index serves (search-payloads.ts). */
const MIN_PAYLOAD_TERM = 3;
const MAX_PAYLOAD_TERM = 200;

/** status=failed&status=pending, status[]=…, or status=failed,pending. */
const zStatuses = z
  .union([z.string(), z.array(z.string())])
  .transform((v) =>
    [v]
      .flat()
      .flatMap((s) => s.split(","))
      .filter((s) => s !== ""),
  )
  .pipe(z.array(z.enum(LOG_STATUSES, { error: `must be one of ${LOG_STATUSES.join(", ")}` })));

export const deliveryLogQuery = listQuery.extend({
  ...timeRange,
  ...eventTypesFilter,
  endpoint_id: zIdOrUid.optional(),
  status: zStatuses.optional(),
  /** The last response's HTTP status; 0 = no HTTP answer (what the Failures page groups by). */
  status_code: z.coerce.number().int().min(0).max(999).optional(),
  /** A message id (msg_…) or the publisher's eventId, or the start of one. */
  search: z.string().trim().min(1).max(256).optional(),
  /** Text inside the payload (search-payloads.ts: at most 7 days, the newest 100 messages). */
  payload: z
    .string()
    .trim()
    .min(MIN_PAYLOAD_TERM, `must be at least ${MIN_PAYLOAD_TERM} characters: shorter terms match nearly every payload`)
    .max(MAX_PAYLOAD_TERM, `must be at most ${MAX_PAYLOAD_TERM} characters`)
    .optional(),
}).superRefine(orderedRange("after", "before"));

export const deliveryParams = z.object({ app_id: zIdOrUid, delivery_id: zIdOrUid });

/** POST …/validate-url: the URL the endpoint form is about to submit. */
export const ValidateUrlIn = z.object({ url: z.string().min(1).max(65536) });

/** POST …/preview-example: which event type's example to build the request for. */
export const PreviewExampleIn = z.object({
  eventType: zEventTypeName,
  /** The payload being edited on the Send page; checked like send-example's (422 naming the field). */
  payload: z.record(z.string(), z.unknown(), { error: "must be a JSON object" }).nullish(),
});
