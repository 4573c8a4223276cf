import { z } from "zod";
import { zBool, zChannel, zEventTypeName, zIdOrUid, zList } from "./fields";
import { listQuery } from "./pagination";

// Path and query schemas shared by the /api/v1 route files.

export const appParams = z.object({ app_id: zIdOrUid });
export const endpointParams = appParams.extend({ endpoint_id: zIdOrUid });
export const msgParams = appParams.extend({ msg_id: zIdOrUid });
export const attemptParams = msgParams.extend({ attempt_id: zIdOrUid });
export const msgEndpointParams = msgParams.extend({ endpoint_id: zIdOrUid });
export const eventTypeParams = z.object({ event_type_name: zEventTypeName });

const zQueryDate = z.iso
  .datetime({ offset: true, message: "must be an ISO 8601 date-time, e.g. 2026-01-15T10:30:00Z" })
  .transform((s) => new Date(s));

export const withContent = { with_content: zBool.default(true) };
export const timeRange = { before: zQueryDate.optional(), after: zQueryDate.optional() };
/**
 * A range that does not start before it ends matches nothing: a 422 naming the start says so,
 * rather than an empty page the caller reads as "no data" (the same rule and words as the
 * tasks' ranges, lib/tasks/delivery-filter.ts). Keys: `after`/`before` or `since`/`until`.
 */
export function orderedRange<S extends string, E extends string>(start: S, end: E) {
  return (v: Partial<Record<S | E, Date>>, ctx: z.RefinementCtx) => {
    const from = v[start];
    const to = v[end];
    if (from && to && from >= to) ctx.addIssue({ code: "custom", path: [start], message: `must be before ${end}` });
  };
}
export const eventTypesFilter = { event_types: zList(zEventTypeName).optional() };
export const channelFilter = { channel: zChannel.optional() };
export const messageStatus = z.coerce
  .number()
  .int()
  .refine((n) => [0, 1, 2, 3, 4].includes(n), "must be 0 (success), 1 (pending), 2 (fail), 3 (sending) or 4 (canceled)");
/** Report canceled deliveries as 4 rather than 2 (newer SDKs send true). */
export const expandedStatuses = { expanded_statuses: zBool.default(false) };
export const statusCodeClass = z.coerce
  .number()
  .int()
  .refine((n) => [0, 100, 200, 300, 400, 500].includes(n), "must be one of 0, 100, 200, 300, 400, 500");

export const attemptListQuery = listQuery.extend({
  ...withContent,
  ...expandedStatuses,
  /** Include the message (without its payload) in each attempt, as `msg`. */
  with_msg: zBool.default(false),
  ...timeRange,
  ...eventTypesFilter,
  ...channelFilter,
  status: messageStatus.optional(),
  status_code_class: statusCodeClass.optional(),
  endpoint_id: zIdOrUid.optional(),
}).superRefine(orderedRange("after", "before"));

// Query schemas of the list and read routes (shared with the OpenAPI document).
export const withContentQuery = z.object(withContent);
export const listMessagesQuery = listQuery
  .extend({ ...withContent, ...timeRange, ...eventTypesFilter, ...channelFilter })
  .superRefine(orderedRange("after", "before"));
export const attemptedMessagesQuery = listQuery.extend({
  ...withContent,
  ...timeRange,
  ...eventTypesFilter,
  ...channelFilter,
  ...expandedStatuses,
  status: messageStatus.optional(),
}).superRefine(orderedRange("after", "before"));
export const statsQuery = z
  .object({ since: zQueryDate.optional(), until: zQueryDate.optional() })
  .superRefine(orderedRange("since", "until"));
// Unlike the message lists, event-type schemas are left out unless asked for (as in Svix).
export const eventTypeListQuery = listQuery.extend({ with_content: zBool.default(false), include_archived: zBool.default(false) });
export const expungeQuery = z.object({ expunge: zBool.default(false) });
export const getIfExistsQuery = z.object({ get_if_exists: zBool.default(false) });
