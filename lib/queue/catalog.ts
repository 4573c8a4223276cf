import { Queue, UnrecoverableError, type Job, type JobsOptions, type Worker, type WorkerOptions } from "bullmq";
import { z } from "zod";
import { queuePrefix, redis } from "./connection";
import { summarised } from "./summarise-errors";
import { processWide } from "../process-wide";

// The typed job catalog: every job Herald enqueues, its queue and payload schema, and what
// recovers the job's work if Redis loses the job. Enqueue only through `enqueue`; workers parse
// the payload again with the same schema when they pick it up (parseJob).

const deliverSchema = z.object({
  deliveryId: z.string(),
  trigger: z.enum(["scheduled", "manual"]).default("scheduled"),
  // The delivery's endpoint, when the enqueuer knows it: lets the engine admit (or park) the job
  // before claiming it (lib/delivery/engine.ts). Only a hint; the claim says which endpoint it is.
  endpointId: z.string().optional(),
});

export const catalog = {
  deliver: {
    queue: "deliveries",
    schema: deliverSchema,
    ifLost: "the sweeper re-enqueues due deliveries from PostgreSQL",
  },
  // A parked delivery whose endpoint has a free slot again: a queue of its own, so it does not
  // wait behind the whole backlog of the main queue (lib/delivery/endpoint-gate.ts).
  "deliver.resume": {
    queue: "deliveries-resumed",
    schema: deliverSchema,
    ifLost: "the sweeper re-enqueues due deliveries from PostgreSQL",
  },
  "task.run": {
    queue: "tasks",
    schema: z.object({ taskId: z.string() }),
    ifLost: "the task sweeper re-enqueues unfinished tasks from PostgreSQL",
  },
  // A separate queue: long-running tasks must not hold up the end-of-task webhooks.
  "task.notify": {
    queue: "task-notifications",
    schema: z.object({ taskId: z.string() }),
    ifLost: "the task sweeper re-enqueues unsent task notifications from PostgreSQL",
  },
  // Emails to an application's members about one of its endpoints (lib/notifications/): one job
  // per change of what they were told; `sent` lists the memberships already emailed, so a retry
  // after an SMTP failure does not email anyone twice.
  "notify.endpoint": {
    queue: "notifications",
    schema: z.object({
      endpointId: z.string(),
      kind: z.enum(["failing", "disabled", "recovered", "enabled"]),
      at: z.string(),
      reason: z.string().nullable().default(null),
      sent: z.array(z.string()).default([]),
    }),
    ifLost: "its alert emails are not sent (the endpoint's notice state in PostgreSQL is up to date)",
  },
} as const;

export type JobName = keyof typeof catalog;
export type JobData<N extends JobName> = z.input<(typeof catalog)[N]["schema"]>;
export type QueueName = (typeof catalog)[JobName]["queue"];

const DEFAULT_JOB_OPTIONS: JobsOptions = { removeOnComplete: true, removeOnFail: 1000, attempts: 1 };

export function queue(name: QueueName): Queue {
  const queues = processWide("heraldQueues", () => new Map<string, Queue>());
  let q = queues.get(name);
  if (!q) {
    q = new Queue(name, { connection: redis(), prefix: queuePrefix(), defaultJobOptions: DEFAULT_JOB_OPTIONS });
    queues.set(name, q);
  }
  return q;
}

export async function enqueue<N extends JobName>(
  name: N,
  jobs: { data: JobData<N>; opts?: JobsOptions }[],
): Promise<void> {
  if (jobs.length === 0) return;
  const { queue: queueName, schema } = catalog[name];
  const bulk = jobs.map((j) => ({ name, data: schema.parse(j.data), opts: { ...DEFAULT_JOB_OPTIONS, ...j.opts } }));
  // One job (a publish to one endpoint, the commonest case) is added without a pipeline: ioredis
  // builds each pipeline by copying every script BullMQ defines onto it, which made addBulk of one
  // job cost 0.29-0.36 ms of CPU here against 0.18 ms for add (the same script in Redis).
  if (bulk.length === 1) await queue(queueName).add(name, bulk[0]!.data, bulk[0]!.opts);
  else await queue(queueName).addBulk(bulk);
}

/**
 * A job picked up without a valid payload. Nearly always one whose Redis keys were lost while its
 * id was still queued (Redis flushed, or a failover without them): BullMQ then hands the id out
 * with an empty payload, once per job, so workers log these summarised. Unrecoverable, as BullMQ
 * means it: retrying cannot bring the payload back.
 */
export class InvalidJobError extends UnrecoverableError {
  constructor(message: string) {
    super(message);
    this.name = "InvalidJobError";
  }
}

/**
 * Options every Herald Worker takes. A job whose Redis keys were lost has lost its own options
 * too, and BullMQ then keeps it as failed under the worker's setting, by default for good: its id
 * would stay taken, and the sweepers, which re-enqueue work under the same job ids (a task's id,
 * its resume and notify ids), could never put that work back. Such a job (an InvalidJobError) is
 * removed when it fails instead. Jobs with their options keep their own removeOnFail.
 */
export const WORKER_DEFAULTS = { removeOnFail: { count: 0 } } satisfies Pick<WorkerOptions, "removeOnFail">;

/**
 * A worker's failed jobs: those without a valid payload (InvalidJobError, expected after Redis
 * lost data) one log line per burst, as `<what> jobs without a valid payload failed`; any other
 * failure goes to `other`.
 */
export function onFailedJobs(worker: Worker, what: string, other?: (job: Job | undefined, err: Error) => void): void {
  const lost = summarised(`${what} jobs without a valid payload failed`);
  worker.on("failed", (job, err) => (err instanceof InvalidJobError ? lost(err) : other?.(job, err)));
}

/** The job's payload, parsed with its catalog schema; an InvalidJobError when it has none or a bad one. */
export function parseJob<N extends JobName>(
  name: N,
  job: { id?: string; queueName?: string; data: unknown },
): z.output<(typeof catalog)[N]["schema"]> {
  const entry = catalog[name];
  const parsed = entry.schema.safeParse(job.data);
  if (parsed.success) return parsed.data as z.output<(typeof catalog)[N]["schema"]>;
  const empty =
    job.data === undefined || job.data === null || (typeof job.data === "object" && Object.keys(job.data).length === 0);
  const issue = parsed.error.issues[0];
  const what = empty
    ? "has no payload (its Redis keys were lost?)"
    : `has an invalid payload (${issue?.path.join(".") || "payload"}: ${issue?.message ?? "invalid"})`;
  throw new InvalidJobError(`job ${job.id ?? "?"} of ${job.queueName ?? entry.queue} ${what}; ${entry.ifLost}`);
}
