import { describe, expect, it, onTestFinished } from "vitest";
import { hasPrefix, idAtTime, idTime, newId } from "./ids";

describe("ids", () => {
  it("are prefixed, URL-safe and carry their creation time", () => {
    const id = newId("message", Date.UTC(2026, 0, 15));
    expect(id).toMatch(/^msg_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(idTime(id)).toBe(Date.UTC(2026, 0, 15));
    expect(hasPrefix(id, "message")).toBe(true);
    expect(hasPrefix(id, "endpoint")).toBe(false);
  });

  it("sort by creation time, even within one millisecond", () => {
    const ids = Array.from({ length: 2000 }, () => newId("attempt"));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("give a lower bound for time-range queries", () => {
    const t = new Date("2026-03-01T00:00:00Z");
    const bound = idAtTime("message", t);
    expect(newId("message", t.getTime()) >= bound).toBe(true);
    expect(newId("message", t.getTime() - 1) < bound).toBe(true);
  });

  it("stay ordered when the random part carries or runs out within a millisecond", () => {
    // The process's clock (lib/ids.ts), set ahead of now so the next ids fall in its millisecond.
    type Clock = { lastTime: number; lastTimeText: string; lastRandom: Buffer };
    const clock = (globalThis as unknown as { heraldIdClock: Clock }).heraldIdClock;
    const saved = { ...clock, lastRandom: Buffer.from(clock.lastRandom) };
    onTestFinished(() => void Object.assign(clock, saved)); // later ids of this process: today's again
    const future = Date.UTC(2100, 0, 1);
    clock.lastTime = future;
    clock.lastTimeText = idAtTime("attempt", new Date(future)).slice("atmpt_".length, "atmpt_".length + 10);
    // The low 40 bits all ones: the next increment carries into the high half.
    clock.lastRandom.set([0, 0, 0, 0, 7, 255, 255, 255, 255, 255]);
    const a = newId("attempt");
    const b = newId("attempt");
    expect(b > a).toBe(true);
    expect(idTime(b)).toBe(future);
    // All 80 bits ones: the next id moves to the next millisecond instead of wrapping to zero.
    clock.lastRandom.fill(255);
    const c = newId("attempt");
    const d = newId("attempt");
    expect(d > c).toBe(true);
    expect(idTime(d)).toBe(future + 1);
  });
});
