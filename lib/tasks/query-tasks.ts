import { z } from "zod";
import { db } from "../db";
import { notFound } from "../http/errors";
import { cursorWhere, listQuery, paginate, toListResponse } from "../http/pagination";
import { zIdOrUid } from "../http/fields";
import { zList } from "../http/fields";
import type { Scope } from "../auth/principal";
import type { TaskKind, TaskStatus } from "../generated/prisma/client";
import { findApplication } from "../applications/find-application";
import { serializeTask } from "./serialize-task";

// Reading tasks. Operators see their environment's tasks; a portal session only its application's.
// The scope is part of every query, so another tenant's task id is simply not found (404).

export const TASK_KINDS = ["recover", "replay", "bulk_retry", "export"] as const;
export const TASK_STATUSES = ["pending", "running", "completed", "failed", "cancelled"] as const;

export const TaskListQuery = listQuery.extend({
  kind: zList(z.enum(TASK_KINDS)).optional(),
  status: zList(z.enum(TASK_STATUSES)).optional(),
  app_id: zIdOrUid.optional(),
  endpoint_id: zIdOrUid.optional(),
});

export const scopeWhere = (scope: Scope) => ({
  environmentId: scope.environmentId,
  ...(scope.applicationId ? { applicationId: scope.applicationId } : {}),
});

export async function findTask(scope: Scope, taskId: string) {
  const task = await db.task.findFirst({ where: { id: taskId, ...scopeWhere(scope) } });
  if (!task) throw notFound("Task");
  return task;
}

export async function getTask(scope: Scope, taskId: string) {
  return serializeTask(await findTask(scope, taskId), scope);
}

export async function listTasks(scope: Scope, q: z.infer<typeof TaskListQuery>) {
  const appId = q.app_id ? (await findApplication(scope, q.app_id)).id : undefined;
  const page = await paginate(q, "descending", "task", (p) =>
    db.task.findMany({
      where: {
        ...scopeWhere(scope),
        ...(appId ? { applicationId: appId } : {}),
        ...(q.endpoint_id ? { endpointId: q.endpoint_id } : {}),
        ...(q.kind?.length ? { kind: { in: q.kind as TaskKind[] } } : {}),
        ...(q.status?.length ? { status: { in: q.status as TaskStatus[] } } : {}),
        ...cursorWhere(p),
      },
      orderBy: { id: p.direction },
      take: p.take,
    }),
  );
  return toListResponse(page, (t) => serializeTask(t, scope));
}
