import { Prisma, type Task, type TaskStatus } from "../generated/prisma/client";
import { db } from "../db";

// The task state machine, the one place where a task's status changes:
//
//   pending ──► running ──► completed | failed | cancelled
//      └──────────────────► cancelled   (cancelled before any worker started it)
//
// Every status write goes through `transitionTask`, a compare-and-set on the current status, so
// two writers (a worker finishing, a user cancelling) can never both win.

export const TERMINAL: readonly TaskStatus[] = ["completed", "failed", "cancelled"];

const ALLOWED: Record<TaskStatus, readonly TaskStatus[]> = {
  pending: ["running", "cancelled"],
  running: ["completed", "failed", "cancelled"],
  completed: [],
  failed: [],
  cancelled: [],
};

export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  return ALLOWED[from].includes(to);
}

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.includes(status);
}

export class IllegalTransition extends Error {
  constructor(
    readonly from: TaskStatus,
    readonly to: TaskStatus,
  ) {
    super(`A task cannot go from ${from} to ${to}`);
  }
}

export function assertTransition(from: TaskStatus, to: TaskStatus): void {
  if (!canTransition(from, to)) throw new IllegalTransition(from, to);
}

type TransitionData = Omit<Prisma.TaskUncheckedUpdateManyInput, "status" | "id">;

/**
 * Moves a task from `from` to `to` if it is still in `from` (and, for a worker, still holds the
 * lease, and matches `where`). Returns the updated task, or null when someone else changed it first.
 */
export async function transitionTask(
  taskId: string,
  from: TaskStatus,
  to: TaskStatus,
  data: TransitionData = {},
  opts: { leaseOwner?: string; client?: Prisma.TransactionClient; where?: Prisma.TaskWhereInput } = {},
): Promise<Task | null> {
  assertTransition(from, to);
  const client = opts.client ?? db;
  const now = new Date();
  const stamps: TransitionData =
    to === "running"
      ? { startedAt: now }
      : isTerminal(to)
        ? { completedAt: now, leaseOwner: null, leaseUntil: null }
        : {};
  const { count } = await client.task.updateMany({
    where: { ...opts.where, id: taskId, status: from, ...(opts.leaseOwner ? { leaseOwner: opts.leaseOwner } : {}) },
    data: { ...stamps, ...data, status: to },
  });
  if (count === 0) return null;
  return client.task.findUnique({ where: { id: taskId } });
}
