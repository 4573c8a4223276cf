import { z } from "zod";
import type { Scope } from "../auth/principal";
import { createTask } from "../tasks/create-task";
import { deliveryFilterFields, resolveDeliveryFilter, type DeliveryFilter } from "../tasks/delivery-filter";
import { callbackFields } from "../tasks/task-callback";
import type { ExportFormat } from "./export-files";

// POST /api/v1/app/{app}/attempt/export: the delivery log (attempts) matching a filter, written as
// NDJSON or CSV by the worker; the finished task's result_url downloads it.

export const ExportIn = z.object({
  format: z.enum(["ndjson", "csv"]).default("ndjson"),
  ...deliveryFilterFields,
  status: z.enum(["success", "fail"]).nullish(),
  /** Include request and response bodies and headers (larger files). */
  with_content: z.boolean().default(false),
  ...callbackFields,
});

export type ExportFilter = DeliveryFilter & {
  status: "success" | "fail" | null;
  format: ExportFormat;
  withContent: boolean;
};

export async function startExport(scope: Scope, appIdOrUid: string, input: z.infer<typeof ExportIn>) {
  const { environmentId, filter: base } = await resolveDeliveryFilter(scope, appIdOrUid, input);
  const filter: ExportFilter = {
    ...base,
    status: input.status ?? null,
    format: input.format,
    withContent: input.with_content,
  };
  return createTask(
    { environmentId, applicationId: filter.appId, endpointId: filter.endpointId, kind: "export", params: filter },
    input,
  );
}
