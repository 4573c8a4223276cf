import { z } from "zod";
import { invalid } from "../http/errors";
import { zDateTime, zEventTypeName, zIdOrUid, zUniqueList } from "../http/fields";
import type { Scope } from "../auth/principal";
import { findApplication } from "../applications/find-application";
import { findEndpoint } from "../endpoints/find-endpoint";

// The delivery filter shared by bulk retry and export: which endpoint, time range, last status
// code (exact or its class) and event types. Ids are resolved in the caller's scope, so another
// tenant's endpoint is a 404 before any task exists.

export const deliveryFilterFields = {
  endpoint_id: zIdOrUid.nullish(),
  since: zDateTime.nullish(),
  until: zDateTime.nullish(),
  status_code: z
    .number()
    .int()
    .refine((n) => n === 0 || (n >= 100 && n <= 599), "must be 0 (no HTTP answer) or 100–599")
    .nullish(),
  status_code_class: z
    .number()
    .int()
    .refine((n) => [0, 100, 200, 300, 400, 500].includes(n), "must be one of 0, 100, 200, 300, 400, 500")
    .nullish(),
  event_types: zUniqueList(zEventTypeName).max(100).nullish(),
};

export type DeliveryFilter = {
  appId: string;
  endpointId: string | null;
  since: string | null;
  until: string;
  /** Exact last response status; 0 = no HTTP answer (timeout, connection error, ...). */
  statusCode: number | null;
  /** 100, 200, ... 500: a class of last response status. */
  statusCodeClass: number | null;
  eventTypes: string[];
};

/**
 * A request's time range as tasks store it (ISO strings); an absent `until` is `defaultUntil`.
 * Also used by replay and recover, whose filters are otherwise their own.
 */
export function resolveTimeRange(
  since: Date | null | undefined,
  until: Date | null | undefined,
  defaultUntil = new Date(),
): { since: string | null; until: string } {
  const end = until ?? defaultUntil;
  if (since && since >= end) throw invalid(["body", "since"], "must be before until");
  return { since: since?.toISOString() ?? null, until: end.toISOString() };
}

export async function resolveDeliveryFilter(
  scope: Scope,
  appIdOrUid: string,
  input: z.infer<z.ZodObject<typeof deliveryFilterFields>>,
): Promise<{ environmentId: string; filter: DeliveryFilter }> {
  const app = await findApplication(scope, appIdOrUid);
  const endpointId = input.endpoint_id ? (await findEndpoint(scope, app.id, input.endpoint_id)).endpoint.id : null;
  const { since, until } = resolveTimeRange(input.since, input.until);
  if (input.status_code != null && input.status_code_class != null)
    throw invalid(["body", "status_code_class"], "give status_code or status_code_class, not both");
  return {
    environmentId: app.environmentId,
    filter: {
      appId: app.id,
      endpointId,
      since,
      until,
      statusCode: input.status_code ?? null,
      statusCodeClass: input.status_code_class ?? null,
      eventTypes: input.event_types ?? [],
    },
  };
}
