import { describe, expect, it } from "vitest";
import { createLocalSlots, LOCAL_WAIT_MS } from "./local-slots";

describe("local slots", () => {
  it("stops waiting for an endpoint whose wait stalled, until one of its requests ends", async () => {
    const slots = createLocalSlots(10);
    expect(slots.worthWaiting("ep")).toBe(true);
    const started = Date.now();
    expect(await slots.wait("ep")).toEqual({ kind: "stalled" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(LOCAL_WAIT_MS - 20);
    // A never-answering endpoint: its next jobs park at once instead of holding a worker slot.
    expect(slots.worthWaiting("ep")).toBe(false);
    expect(slots.worthWaiting("other")).toBe(true);
    // It moved again: waiting is worth it again.
    slots.next("ep", 20);
    expect(slots.worthWaiting("ep")).toBe(true);
  });

  it("hands a slot to the first job waiting for the endpoint", async () => {
    const slots = createLocalSlots(10);
    const waiting = slots.wait("ep");
    const lease = { id: "lease:1", until: Date.now() + 10_000 };
    slots.next("ep", 5)!.settle({ kind: "handed", lease });
    expect(await waiting).toEqual({ kind: "handed", lease });
    expect(slots.waiting("ep")).toBe(0);
  });
});
