import { UnrecoverableError } from "bullmq";
import { describe, expect, it } from "vitest";
import { InvalidJobError, parseJob } from "./catalog";

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
