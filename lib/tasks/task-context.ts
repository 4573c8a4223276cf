import type { Prisma, Task } from "../generated/prisma/client";
import type { TaskResult } from "./serialize-task";

// What a task kind gets from the runner (lib/tasks/run-task.ts) to do its work in batches.

export type RunOptions = {
  /** Identifies this worker process in the task's lease. */
  workerId: string;
  batchSize: number;
  /** Pause between batches (throttling). */
  pauseMs: number;
  leaseMs: number;
  /** Flow control (lib/tasks/delivery-flow.ts): a task's deliveries awaiting their attempt, at most. */
  maxInFlight: number;
  /** ... and bulk work waits while more delivery jobs than this are waiting in the queue. */
  maxQueueDepth: number;
  /** Aborted when the worker shuts down: stop after the current batch, leave the task resumable. */
  shutdown: AbortSignal;
};

export type Progress = { cursor: string | null; done: number; result: TaskResult };

export type KindContext = {
  task: Task;
  opts: RunOptions;
  /** Where the task stands: the last committed cursor, count and result. */
  progress(): Progress;
  /**
   * Runs the batch's writes and saves the new cursor, count and result in ONE transaction, only
   * if this worker still holds the task; so a batch is either fully done and recorded or not at
   * all, and a resumed run neither repeats nor skips rows.
   */
  commit<T>(
    write: (tx: Prisma.TransactionClient) => Promise<T>,
    next: (value: T, before: Progress) => Omit<Progress, "done"> & { added: number },
  ): Promise<T>;
  /** Cancel requested, worker shutting down or lease lost: start no new batch. */
  interrupted(): boolean;
  /** Paced enqueuing of the task's (committed) deliveries, so normal traffic is not starved. */
  deliveries: { waitForRoom(): Promise<void>; send(ids: string[]): Promise<void> };
};

export type TaskKindRunner = {
  /** How many units the task will process, counted once when it first starts. */
  total(task: Task): Promise<number>;
  /** Processes one batch after the cursor; "done" when there is nothing left. */
  step(ctx: KindContext): Promise<"more" | "done">;
  /** Undoes what is still undone of a cancelled task (before it is marked cancelled). */
  cancelled?(taskId: string): Promise<unknown>;
};

/** A failure with a code the API shows as `error.code`. */
export class TaskError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** This worker no longer owns the task (its lease expired and another run took over). */
export class LeaseLost extends Error {
  constructor(taskId: string) {
    super(`lost the lease on task ${taskId}`);
  }
}
