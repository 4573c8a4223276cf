import { authenticate } from "../auth/authenticate";
import { scopeOf, type Scope } from "../auth/principal";
import { unauthorized } from "../http/errors";
import { scopeFromLink } from "./task-links";

/**
 * Who may read a task's event stream or result file: a caller with an API key or portal session
 * in the Authorization header (fetch-based streaming, curl), or the holder of the signed,
 * expiring link from the task resource (`events_url`, `result_url`), which is what a browser's
 * EventSource or a download uses since neither can set headers.
 */
export async function scopeForTaskLink(
  req: Request,
  taskId: string,
  purpose: "task-events" | "task-result",
): Promise<Scope> {
  const header = req.headers.get("authorization");
  if (header) return scopeOf(await authenticate(header));
  const token = new URL(req.url).searchParams.get("token");
  if (!token)
    throw unauthorized("Send an Authorization header, or use the signed link from the task (events_url / result_url)");
  const v = scopeFromLink(token, purpose, taskId);
  if (!v.ok)
    throw unauthorized(
      v.reason === "expired"
        ? "This link has expired; fetch the task again (GET /api/v1/tasks/{task_id}) for a fresh one"
        : "This link is not valid for this task",
    );
  return v.scope;
}
