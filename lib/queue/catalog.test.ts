import { randomBytes } from "node:crypto";
import { Queue, UnrecoverableError, Worker } from "bullmq";
import { describe, expect, it } from "vitest";
import { deleteKeys } from "../../scripts/lib/isolated-run.mjs";
import { testRedis } from "../../test/helpers/redis";
import { env } from "../env";
import { createRedis } from "./connection";
import { InvalidJobError, parseJob, WORKER_DEFAULTS } from "./catalog";

describe("parseJob", () => {
  it("answers the payload with the schema's defaults", () => {
    expect(parseJob("deliver", { id: "dlv_1", data: { deliveryId: "dlv_1" } })).toEqual({
      deliveryId: "dlv_1",
      trigger: "scheduled",
    });
  });

  it("a job whose Redis keys were lost (BullMQ hands it out with {}): one short unrecoverable error naming the job", () => {
    const lost = () => parseJob("deliver", { id: "dlv_1", queueName: "deliveries-resumed", data: {} });
    expect(lost).toThrow(InvalidJobError);
    expect(lost).toThrow(UnrecoverableError); // so BullMQ does not retry it
    expect(lost).toThrow(
      /^job dlv_1 of deliveries-resumed has no payload \(its Redis keys were lost\?\); the sweeper re-enqueues due deliveries from PostgreSQL$/,
    );
  });

  it("a malformed payload: the first problem, on one line", () => {
    expect(() => parseJob("task.run", { id: "7", data: { taskId: 7 } })).toThrow(
      /^job 7 of tasks has an invalid payload \(taskId: [^\n]+\); the task sweeper re-enqueues unfinished tasks from PostgreSQL$/,
    );
  });
});

describe("a job whose Redis keys were lost", () => {
  it("fails once and frees its id, so a sweeper can enqueue the same job id again", async () => {
    // Against the run's Redis, under a BullMQ prefix of this test's own.
    const { HERALD_REDIS_PREFIX, REDIS_URL, HERALD_REDIS_MODE, HERALD_REDIS_SENTINEL_NAME, HERALD_REDIS_SENTINEL_PASSWORD } = env();
    const own = `${HERALD_REDIS_PREFIX}-lost-${randomBytes(3).toString("hex")}`;
    const prefix = `{${own}}`;
    const redis = testRedis();
    const workerRedis = createRedis("worker");
    const queue = new Queue("tasks", { connection: redis, prefix });
    let worker: Worker | null = null;
    try {
      await queue.add("task.run", { taskId: "qtask_lost" }, { jobId: "qtask_lost" });
      // The job's hash goes, its id stays queued (a flush racing BullMQ's scripts leaves this).
      await redis.del(`${prefix}:tasks:qtask_lost`);
      const w = new Worker("tasks", (job) => Promise.resolve(void parseJob("task.run", job)), {
        ...WORKER_DEFAULTS,
        connection: workerRedis,
        prefix,
      });
      worker = w;
      const failed = await new Promise<Error>((resolve) => w.on("failed", (_job, err) => resolve(err)));
      expect(failed).toBeInstanceOf(InvalidJobError);
      await w.close();
      // The sweeper's re-enqueue under the same id is taken, not swallowed by a kept failed stub.
      await queue.add("task.run", { taskId: "qtask_lost" }, { jobId: "qtask_lost" });
      expect((await queue.getJob("qtask_lost"))?.data).toEqual({ taskId: "qtask_lost" });
    } finally {
      await worker?.close();
      await queue.close();
      redis.disconnect();
      workerRedis.disconnect();
      await deleteKeys({ REDIS_URL, HERALD_REDIS_MODE, HERALD_REDIS_SENTINEL_NAME, HERALD_REDIS_SENTINEL_PASSWORD }, own);
    }
  });
});
