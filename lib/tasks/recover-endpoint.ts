import { z } from "zod";
import { zDateTime } from "../http/fields";
import type { Scope } from "../auth/principal";
import { findEndpoint } from "../endpoints/find-endpoint";
import { createTask } from "./create-task";
import { resolveTimeRange } from "./delivery-filter";
import { callbackFields } from "./task-callback";

export const RecoverIn = z.object({ since: zDateTime, until: zDateTime.nullish(), ...callbackFields });

/**
 * POST …/endpoint/{ep}/recover (Svix semantics): re-attempt every failed (dead-lettered) delivery
 * to the endpoint created between `since` and `until` (default now). Answers Svix's RecoverOut.
 */
export async function recoverEndpoint(scope: Scope, app: string, endpoint: string, body: z.infer<typeof RecoverIn>) {
  const { endpoint: ep } = await findEndpoint(scope, app, endpoint);
  const { task, shown } = await createTask(
    {
      environmentId: ep.environmentId,
      applicationId: ep.applicationId,
      endpointId: ep.id,
      kind: "recover",
      params: resolveTimeRange(body.since, body.until),
    },
    body,
  );
  return {
    id: task.id,
    status: "running" as const,
    task: "endpoint.recover" as const,
    updatedAt: task.updatedAt.toISOString(),
    ...shown,
  };
}
