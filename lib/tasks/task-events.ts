import { setTimeout as sleep } from "node:timers/promises";
import { db } from "../db";
import type { Scope } from "../auth/principal";
import { logger } from "../logger";
import { findTask, scopeWhere } from "./query-tasks";
import { serializeTask } from "./serialize-task";
import { isTerminal } from "./task-state";

// GET /api/v1/tasks/{id}/events: Server-Sent Events. `status` when the state changes, `progress`
// when the counts move (at most every POLL_MS), a comment line as keep-alive, and the stream ends
// after the final `status` event. A stream is capped at MAX_STREAM_MS; EventSource reconnects.

export const POLL_MS = 500;
export const KEEPALIVE_MS = 15_000;
export const MAX_STREAM_MS = 30 * 60_000;

export async function taskEventStream(scope: Scope, taskId: string, signal: AbortSignal): Promise<Response> {
  await findTask(scope, taskId); // 404 before any stream starts
  const encoder = new TextEncoder();
  let closed = false;

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const started = Date.now();
      let lastStatus = "";
      let lastDone = -1;
      let lastTotal: number | null = -1;
      let lastWrite = Date.now();
      send(`retry: 2000\n\n`);
      try {
        while (!closed && !signal.aborted && Date.now() - started < MAX_STREAM_MS) {
          const task = await db.task.findFirst({ where: { id: taskId, ...scopeWhere(scope) } });
          if (!task) break;
          const data = JSON.stringify(serializeTask(task, scope));
          if (task.status !== lastStatus) {
            send(`event: status\nid: ${task.status}-${task.doneCount}\ndata: ${data}\n\n`);
            lastWrite = Date.now();
          } else if (task.doneCount !== lastDone || task.totalCount !== lastTotal) {
            send(`event: progress\nid: ${task.status}-${task.doneCount}\ndata: ${data}\n\n`);
            lastWrite = Date.now();
          } else if (Date.now() - lastWrite > KEEPALIVE_MS) {
            send(`: keep-alive\n\n`);
            lastWrite = Date.now();
          }
          lastStatus = task.status;
          lastDone = task.doneCount;
          lastTotal = task.totalCount;
          if (isTerminal(task.status)) break;
          await sleep(POLL_MS, undefined, { signal }).catch(() => undefined);
        }
      } catch (err) {
        logger.warn({ err, taskId }, "task event stream failed");
      }
      if (!closed) {
        closed = true;
        controller.close();
      }
    },
    cancel() {
      closed = true;
    },
  });

  return new Response(stream, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
      connection: "keep-alive",
    },
  });
}
