import { describe, expect, it } from "vitest";
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
});
