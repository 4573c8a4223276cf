import { invalid } from "../http/errors";
import type { Scope } from "../auth/principal";
import { findEndpoint } from "../endpoints/find-endpoint";
import { createTask } from "./create-task";

/** POST …/endpoint/{ep}/recover: re-attempt every failed delivery to it between since and until. */
export async function recoverEndpoint(scope: Scope, app: string, endpoint: string, range: { since: Date; until?: Date | null | undefined }) {
  const { endpoint: ep } = await findEndpoint(scope, app, endpoint);
  const until = range.until ?? new Date();
  if (range.since >= until) throw invalid(["body", "since"], "must be before until");
  const task = await createTask({
    environmentId: ep.environmentId,
    applicationId: ep.applicationId,
    endpointId: ep.id,
    kind: "recover",
    params: { since: range.since.toISOString(), until: until.toISOString() },
  });
  return {
    id: task.id,
    status: "running" as const,
    task: "endpoint.recover" as const,
    updatedAt: task.updatedAt.toISOString(),
  };
}
