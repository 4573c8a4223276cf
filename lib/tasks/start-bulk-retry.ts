import { z } from "zod";
import type { Scope } from "../auth/principal";
import { createTask } from "./create-task";
import { deliveryFilterFields, resolveDeliveryFilter } from "./delivery-filter";
import { callbackFields } from "./task-callback";

// POST /api/v1/app/{app}/bulk-retry: re-attempt the dead-lettered deliveries that match a filter.
// A retry is a new attempt of the same delivery (same webhook-id), unlike a replay.

// Strict: a misspelt filter field (endpointId) would otherwise be dropped and the retry widened
// to the whole application.
export const BulkRetryIn = z.object({ ...deliveryFilterFields, ...callbackFields }).strict();

export async function startBulkRetry(scope: Scope, appIdOrUid: string, input: z.infer<typeof BulkRetryIn>) {
  const { environmentId, filter } = await resolveDeliveryFilter(scope, appIdOrUid, input);
  return createTask(
    { environmentId, applicationId: filter.appId, endpointId: filter.endpointId, kind: "bulk_retry", params: filter },
    input,
  );
}
