import { describe, expect, it } from "vitest";
import { createLocalSlots, LOCAL_WAIT_MS, SPARE_LINGER_MS } from "./local-slots";

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

  it("keeps an ended request's lease as the endpoint's spare, then gives it back after the linger", async () => {
    const slots = createLocalSlots(10);
    const given: string[] = [];
    const lease = (id: string) => ({ id, until: Date.now() + 10_000 });
    expect(slots.keepSpare("ep", lease("lease:1"), (l) => given.push(l.id))).toBe(true);
    // One spare per endpoint: a second ended request gives its lease back itself.
    expect(slots.keepSpare("ep", lease("lease:2"), (l) => given.push(l.id))).toBe(false);
    // The endpoint's next job takes it without asking Redis; then there is none.
    expect(slots.takeSpare("ep")?.id).toBe("lease:1");
    expect(slots.takeSpare("ep")).toBeNull();
    // Not taken within the linger: given back (so parked deliveries are woken).
    expect(slots.keepSpare("ep", lease("lease:3"), (l) => given.push(l.id))).toBe(true);
    await new Promise((r) => setTimeout(r, SPARE_LINGER_MS + 50));
    expect(given).toEqual(["lease:3"]);
    expect(slots.takeSpare("ep")).toBeNull();
  });

  it("keeps no spare for an endpoint that was at its cap lately, nor with jobs waiting", () => {
    const slots = createLocalSlots(10);
    const lease = { id: "lease:1", until: Date.now() + 10_000 };
    void slots.wait("busy");
    expect(slots.keepSpare("busy", lease, () => undefined)).toBe(false);
    slots.contended("ep");
    expect(slots.keepSpare("ep", lease, () => undefined)).toBe(false);
    // Shutdown takes every spare, to give back to Redis.
    expect(slots.keepSpare("other", lease, () => undefined)).toBe(true);
    expect(slots.takeAllSpares()).toEqual([{ endpointId: "other", lease }]);
  });
});
