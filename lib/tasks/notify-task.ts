import { Agent, request } from "undici";
import { db } from "../db";
import { env } from "../env";
import type { Task, TaskKind } from "../generated/prisma/client";
import { logger } from "../logger";
import { emitOperationalEvent } from "../operational/emit-operational-event";
import { addressPolicy, secretBox } from "../services";
import { signWebhook } from "../signing/sign";
import { guardedConnector } from "../ssrf/guarded-connect";
import { serializeTask } from "./serialize-task";
import { isTerminal } from "./task-state";

// When a task ends (worker job task.notify, retried with backoff): the `background_task.finished`
// operational webhook, then, if the request named one, a POST to its callback_url signed exactly
// like a webhook delivery (Standard Webhooks headers) with the task's callback secret. Callback URLs
// pass the connect-time SSRF guard; redirects are not followed (undici's default); any 2xx is success.

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

let agent: Agent | undefined;
function callbackAgent(): Agent {
  agent ??= new Agent({
    connect: guardedConnector({ policy: addressPolicy(), connectTimeoutMs: env().HERALD_CONNECT_TIMEOUT_MS }),
  });
  return agent;
}

async function sendCallback(task: Task): Promise<void> {
  const body = Buffer.from(JSON.stringify({ id: task.id, ...finishedEvent(task) }), "utf8");
  const secret = secretBox().open(task.callbackSecretEncrypted!);
  const headers = signWebhook({ id: task.id, body, secrets: [secret] });
  const res = await request(task.callbackUrl!, {
    method: "POST",
    body,
    headers: { ...headers, "content-type": "application/json", "user-agent": "Herald-Webhooks/1 (task callback)" },
    dispatcher: callbackAgent(),
    headersTimeout: env().HERALD_REQUEST_TIMEOUT_MS,
    bodyTimeout: env().HERALD_REQUEST_TIMEOUT_MS,
  });
  await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
  if (res.statusCode < 200 || res.statusCode >= 300) throw new Error(`callback answered HTTP ${res.statusCode}`);
}

export async function notifyTaskFinished(taskId: string, attempt: { made: number; max: number }): Promise<void> {
  const task = await db.task.findUnique({ where: { id: taskId } });
  if (!task || !isTerminal(task.status)) return;

  if (!task.notifiedAt) {
    await emitTaskFinished(task);
    await db.task.updateMany({ where: { id: taskId, notifiedAt: null }, data: { notifiedAt: new Date() } });
  }

  if (task.callbackUrl && task.callbackSecretEncrypted && !task.callbackStatus) {
    try {
      await sendCallback(task);
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
