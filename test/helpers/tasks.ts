import type { Api } from "./http";
import { pollUntil } from "./sdk";

// Waiting on async tasks through the public API.

const FINAL = ["completed", "failed", "cancelled"];

/** Polls GET /tasks/{id} until the task is in one of `statuses` (default: finished); returns it. */
export async function waitForTask(
  api: Api,
  taskId: string,
  statuses: string[] = FINAL,
  timeoutMs = 30_000,
): Promise<any> {
  const res = await pollUntil(
    () => api("GET", `/tasks/${taskId}`),
    (r) => r.status !== 200 || statuses.includes(r.body.status),
    timeoutMs,
  );
  if (res.status !== 200) throw new Error(`GET /tasks/${taskId} answered ${res.status}: ${JSON.stringify(res.body)}`);
  if (!statuses.includes(res.body.status))
    throw new Error(`task ${taskId} is still ${res.body.status} (${res.body.summary}) after ${timeoutMs} ms`);
  return res.body;
}

/** Polls GET /tasks/{id} until `done(task)`; returns the task. */
export async function waitForTaskState(
  api: Api,
  taskId: string,
  done: (t: any) => boolean,
  timeoutMs = 30_000,
): Promise<any> {
  const res = await pollUntil(
    () => api("GET", `/tasks/${taskId}`),
    (r) => r.status === 200 && done(r.body),
    timeoutMs,
  );
  if (!done(res.body)) throw new Error(`task ${taskId} did not reach the expected state: ${JSON.stringify(res.body)}`);
  return res.body;
}
