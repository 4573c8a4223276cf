import { z } from "zod";
import { invalid } from "../http/errors";
import { zDateTime, zEventTypeName, zIdOrUid, zUniqueList } from "../http/fields";
import type { Scope } from "../auth/principal";
import { findApplication } from "../applications/find-application";
import { findEndpoint } from "../endpoints/find-endpoint";
import { createTask } from "../tasks/create-task";
import { callbackFields, resolveCallback } from "../tasks/task-callback";
import type { ExportFormat } from "./export-files";

// POST /api/v1/app/{app}/attempt/export: the delivery log (attempts) matching a filter, written as
// NDJSON or CSV by the worker; the finished task's result_url downloads it.

export const ExportIn = z.object({
  format: z.enum(["ndjson", "csv"]).default("ndjson"),
  endpoint_id: zIdOrUid.nullish(),
  since: zDateTime.nullish(),
  until: zDateTime.nullish(),
  status: z.enum(["success", "fail"]).nullish(),
  status_code: z.number().int().min(0).max(599).nullish(),
  status_code_class: z
    .number()
    .int()
    .refine((n) => [0, 100, 200, 300, 400, 500].includes(n), "must be one of 0, 100, 200, 300, 400, 500")
    .nullish(),
  event_types: zUniqueList(zEventTypeName).max(100).nullish(),
  /** Include request and response bodies and headers (larger files). */
  with_content: z.boolean().default(false),
  ...callbackFields,
});

export type ExportFilter = {
  appId: string;
  endpointId: string | null;
  since: string | null;
  until: string;
  status: "success" | "fail" | null;
  statusCode: number | null;
  statusCodeClass: number | null;
  eventTypes: string[];
  format: ExportFormat;
  withContent: boolean;
};

export async function startExport(scope: Scope, appIdOrUid: string, input: z.infer<typeof ExportIn>) {
  const app = await findApplication(scope, appIdOrUid);
  const endpointId = input.endpoint_id ? (await findEndpoint(scope, app.id, input.endpoint_id)).endpoint.id : null;
  const until = input.until ?? new Date();
  if (input.since && input.since >= until) throw invalid(["body", "since"], "must be before until");
  if (input.status_code != null && input.status_code_class != null)
    throw invalid(["body", "status_code_class"], "give status_code or status_code_class, not both");
  const { callback, shown } = await resolveCallback(input);
  const filter: ExportFilter = {
    appId: app.id,
    endpointId,
    since: input.since?.toISOString() ?? null,
    until: until.toISOString(),
    status: input.status ?? null,
    statusCode: input.status_code ?? null,
    statusCodeClass: input.status_code_class ?? null,
    eventTypes: input.event_types ?? [],
    format: input.format,
    withContent: input.with_content,
  };
  const task = await createTask({
    environmentId: app.environmentId,
    applicationId: app.id,
    endpointId,
    kind: "export",
    params: filter,
    callback,
  });
  return { task, shown };
}
