import { describe, expect, it } from "vitest";
import { createBatcher } from "./batcher";

describe("batcher", () => {
  it("sends items that arrive while every slot is busy together, and answers each caller", async () => {
    const batches: number[][] = [];
    const b = createBatcher(
      async (items: number[]) => {
        batches.push(items);
        await new Promise((r) => setTimeout(r, 20));
        return items.map((i) => i * 2);
      },
      { maxBatch: 10, maxConcurrent: 1, windowMs: 1 },
    );
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => b(i)));
    expect(results).toEqual(Array.from({ length: 25 }, (_, i) => i * 2));
    expect(batches.flat().sort((x, y) => x - y)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(batches.every((x) => x.length <= 10)).toBe(true);
    expect(batches.length).toBeLessThan(25);
    await b.drain();
  });

  it("rejects every caller of a failed batch", async () => {
    const b = createBatcher(async (_items: number[]) => Promise.reject(new Error("db down")), {
      maxBatch: 5,
      maxConcurrent: 2,
      windowMs: 1,
    });
    await expect(Promise.all([b(1), b(2)])).rejects.toThrow("db down");
  });
});
