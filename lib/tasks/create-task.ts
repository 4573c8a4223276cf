import { db } from "../db";
import { conflict } from "../http/errors";
import { newId } from "../ids";
import { Prisma, type Task, type TaskKind } from "../generated/prisma/client";
import { enqueue } from "../queue/catalog";
import { logger } from "../logger";
import { secretBox } from "../services";
import { resolveCallback, type CallbackIn } from "./task-callback";

/**
 * Records a task and hands it to the worker.
 *
 * One unfinished task of a kind per target: per endpoint, and an application-wide task (no
 * endpoint, e.g. a replay to all endpoints) excludes every task of that kind in the application,
 * and vice versa. A transaction-scoped advisory lock on (application, kind) makes the check and
 * the insert atomic; the partial unique indexes are the backstop. A second request gets a 409
 * naming the task in the way.
 *
 * `request` is the body of the request that starts the task: its callback fields are checked
 * first (422), and `shown` is the callback secret Herald generated, for the 202 answer.
 */
export async function createTask(
  input: {
    environmentId: string;
    applicationId: string;
    endpointId?: string | null;
    kind: TaskKind;
    params: Record<string, unknown>;
    totalCount?: number | null;
  },
  request: CallbackIn,
): Promise<{ task: Task; shown: Record<string, string> }> {
  const { callback, shown } = await resolveCallback(request);
  const endpointId = input.endpointId ?? null;
  let task: Task;
  try {
    task = await db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`task:${input.applicationId}:${input.kind}`}))`;
      const inTheWay = await tx.task.findFirst({
        where: {
          applicationId: input.applicationId,
          kind: input.kind,
          status: { in: ["pending", "running"] },
          ...(endpointId ? { OR: [{ endpointId }, { endpointId: null }] } : {}),
        },
        select: { id: true, status: true, endpointId: true },
      });
      if (inTheWay) throw alreadyRunning(input.kind, inTheWay);
      return tx.task.create({
        data: {
          id: newId("task"),
          environmentId: input.environmentId,
          applicationId: input.applicationId,
          endpointId,
          kind: input.kind,
          params: input.params as Prisma.InputJsonValue,
          callbackUrl: callback?.url ?? null,
          callbackSecretEncrypted: callback ? secretBox().seal(callback.secret) : null,
          totalCount: input.totalCount ?? null,
        },
      });
    });
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") {
      const running = await db.task.findFirst({
        where: { applicationId: input.applicationId, kind: input.kind, status: { in: ["pending", "running"] } },
        select: { id: true, status: true, endpointId: true },
      });
      throw alreadyRunning(input.kind, running ?? { id: "unknown", status: "running", endpointId });
    }
    throw e;
  }
  try {
    await enqueue("task.run", [{ data: { taskId: task.id }, opts: { jobId: task.id } }]);
  } catch (err) {
    // The worker's sweeper also starts pending tasks it finds in the database.
    logger.warn({ err, taskId: task.id }, "could not enqueue task; the sweeper will start it");
  }
  return { task, shown };
}

function alreadyRunning(kind: TaskKind, t: { id: string; status: string; endpointId: string | null }) {
  const where = t.endpointId ? `for endpoint ${t.endpointId}` : "for all endpoints of this application";
  return conflict(
    `A ${kind} task is already ${t.status} ${where} (${t.id}); wait for it to finish or cancel it (POST /api/v1/tasks/${t.id}/cancel)`,
    "task_already_running",
  );
}
