import { z } from "zod";
import { invalid } from "../http/errors";
import { zDateTime, zEventTypeName, zIdOrUid, zUniqueList } from "../http/fields";
import type { Scope } from "../auth/principal";
import { findApplication } from "../applications/find-application";
import { findEndpoint } from "../endpoints/find-endpoint";
import { createTask } from "./create-task";
import { callbackFields, resolveCallback } from "./task-callback";
import type { DeadLetterFilter } from "./dead-letters";

// POST /api/v1/app/{app}/bulk-retry: re-attempt the dead-lettered deliveries that match a filter.
// A retry is a new attempt of the same delivery (same webhook-id), unlike a replay.

export const BulkRetryIn = z.object({
  endpoint_id: zIdOrUid.nullish(),
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
  since: zDateTime.nullish(),
  until: zDateTime.nullish(),
  event_types: zUniqueList(zEventTypeName).max(100).nullish(),
  ...callbackFields,
});

export async function startBulkRetry(scope: Scope, appIdOrUid: string, input: z.infer<typeof BulkRetryIn>) {
  const app = await findApplication(scope, appIdOrUid);
  const endpointId = input.endpoint_id ? (await findEndpoint(scope, app.id, input.endpoint_id)).endpoint.id : null;
  const until = input.until ?? new Date();
  if (input.since && input.since >= until) throw invalid(["body", "since"], "must be before until");
  if (input.status_code != null && input.status_code_class != null)
    throw invalid(["body", "status_code_class"], "give status_code or status_code_class, not both");
  const { callback, shown } = await resolveCallback(input);
  const filter: DeadLetterFilter = {
    appId: app.id,
    endpointId,
    since: input.since?.toISOString() ?? null,
    until: until.toISOString(),
    statusCode: input.status_code ?? null,
    statusCodeClass: input.status_code_class ?? null,
    eventTypes: input.event_types ?? [],
  };
  const task = await createTask({
    environmentId: app.environmentId,
    applicationId: app.id,
    endpointId,
    kind: "bulk_retry",
    params: filter,
    callback,
  });
  return { task, shown };
}
