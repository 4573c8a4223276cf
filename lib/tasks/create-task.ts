import { db } from "../db";
import { conflict } from "../http/errors";
import { newId } from "../ids";
import { Prisma, type TaskKind } from "../generated/prisma/client";
import { enqueue } from "../queue/catalog";
import { logger } from "../logger";

/**
 * Records a task and hands it to the worker. At most one unfinished task of a kind runs per
 * endpoint (a partial unique index); a second gets a 409 naming the running one.
 */
export async function createTask(input: {
  environmentId: string;
  applicationId?: string | null;
  endpointId?: string | null;
  kind: TaskKind;
  params: Record<string, unknown>;
  callbackUrl?: string | null;
  totalCount?: number | null;
}) {
  try {
    const task = await db.task.create({
      data: {
        id: newId("task"),
        environmentId: input.environmentId,
        applicationId: input.applicationId ?? null,
        endpointId: input.endpointId ?? null,
        kind: input.kind,
        params: input.params as Prisma.InputJsonValue,
        callbackUrl: input.callbackUrl ?? null,
        totalCount: input.totalCount ?? null,
      },
    });
    try {
      await enqueue("task.run", [{ data: { taskId: task.id }, opts: { jobId: task.id } }]);
    } catch (err) {
      // The worker's sweeper also starts pending tasks it finds in the database.
      logger.warn({ err, taskId: task.id }, "could not enqueue task; the sweeper will start it");
    }
    return task;
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") {
      const running = await db.task.findFirst({
        where: { endpointId: input.endpointId ?? null, kind: input.kind, status: { in: ["pending", "running"] } },
        select: { id: true, status: true },
      });
      throw conflict(
        `A ${input.kind} task is already ${running?.status ?? "running"} for this endpoint (${running?.id ?? "unknown"}); wait for it or cancel it`,
        "task_already_running",
      );
    }
    throw e;
  }
}
