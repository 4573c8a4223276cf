import { invalid } from "../http/errors";
import type { Scope } from "../auth/principal";
import { findEndpoint } from "../endpoints/find-endpoint";
import { createTask } from "./create-task";
import { resolveCallback } from "./task-callback";

/**
 * POST …/endpoint/{ep}/recover (Svix semantics): re-attempt every failed (dead-lettered) delivery
 * to the endpoint created between `since` and `until` (default now). Answers Svix's RecoverOut.
 */
export async function recoverEndpoint(
  scope: Scope,
  app: string,
  endpoint: string,
  body: { since: Date; until?: Date | null | undefined; callback_url?: string | null; callback_secret?: string | null },
) {
  const { endpoint: ep } = await findEndpoint(scope, app, endpoint);
  const until = body.until ?? new Date();
  if (body.since >= until) throw invalid(["body", "since"], "must be before until");
  const { callback, shown } = await resolveCallback(body);
  const task = await createTask({
    environmentId: ep.environmentId,
    applicationId: ep.applicationId,
    endpointId: ep.id,
    kind: "recover",
    params: { since: body.since.toISOString(), until: until.toISOString() },
    callback,
  });
  return {
    id: task.id,
    status: "running" as const,
    task: "endpoint.recover" as const,
    updatedAt: task.updatedAt.toISOString(),
    ...shown,
  };
}
