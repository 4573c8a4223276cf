import { db } from "../db";
import type { Task, TaskKind } from "../generated/prisma/client";
import { logger } from "../logger";
import { buildHeaders } from "../delivery/build-request";
import type { WebhookClient } from "../delivery/http-client";
import { emitOperationalEvent } from "../operational/emit-operational-event";
import { secretBox } from "../services";
import { serializeTask } from "./serialize-task";
import { isTerminal } from "./task-state";

// When a task ends (worker job task.notify, retried with backoff): the `background_task.finished`
// operational webhook, then, if the request named one, a POST to its callback_url built and sent
// exactly like a webhook delivery (the same headers, signed with the task's callback secret, and
// the deliveries' HTTP client: connect-time SSRF guard, timeouts, no redirects, capped answer).
// Any 2xx is success.

export const TASK_NAMES: Record<TaskKind, string> = {
  recover: "endpoint.recover",
  replay: "message.replay",
  bulk_retry: "delivery.bulk_retry",
  export: "attempt.export",
};

export function finishedEvent(task: Task) {
  return {
    type: "background_task.finished",
    timestamp: (task.completedAt ?? new Date()).toISOString(),
    data: { taskId: task.id, task: TASK_NAMES[task.kind], status: task.status, data: serializeTask(task) },
  };
}

async function sendCallback(task: Task, client: WebhookClient): Promise<void> {
  const body = Buffer.from(JSON.stringify({ id: task.id, ...finishedEvent(task) }), "utf8");
  const secret = secretBox().open(task.callbackSecretEncrypted!);
  const { headers } = buildHeaders({ messageId: task.id, body, keys: [secret], customHeaders: {} });
  const res = await client.post(task.callbackUrl!, headers, body);
  if (res.status === 0) throw new Error(`callback failed (${res.errorClass ?? "network"}): ${res.errorMessage ?? "no answer"}`);
  if (res.status < 200 || res.status >= 300) throw new Error(`callback answered HTTP ${res.status}`);
}

export async function notifyTaskFinished(
  taskId: string,
  attempt: { made: number; max: number },
  client: WebhookClient,
): Promise<void> {
  const task = await db.task.findUnique({ where: { id: taskId } });
  if (!task || !isTerminal(task.status)) return;

  if (!task.notifiedAt) {
    await emitTaskFinished(task);
    await db.task.updateMany({ where: { id: taskId, notifiedAt: null }, data: { notifiedAt: new Date() } });
  }

  if (task.callbackUrl && task.callbackSecretEncrypted && !task.callbackStatus) {
    try {
      await sendCallback(task, client);
      await db.task.update({ where: { id: taskId }, data: { callbackStatus: "delivered" } });
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      if (attempt.made + 1 < attempt.max) throw e;
      logger.warn({ taskId, err: e }, "task callback failed for good");
      await db.task.update({ where: { id: taskId }, data: { callbackStatus: `failed: ${why}`.slice(0, 500) } });
    }
  }
}

/** background_task.finished to the environment's operational webhook endpoints (Svix's shape). */
async function emitTaskFinished(task: Task): Promise<void> {
  await emitOperationalEvent(task.environmentId, "background_task.finished", finishedEvent(task).data);
}
