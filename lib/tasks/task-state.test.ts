import { describe, expect, it } from "vitest";
import { IllegalTransition, assertTransition, canTransition, isTerminal } from "./task-state";
import type { TaskStatus } from "../generated/prisma/client";

const ALL: TaskStatus[] = ["pending", "running", "completed", "failed", "cancelled"];
const ALLOWED = new Set([
  "pending>running",
  "pending>cancelled",
  "running>completed",
  "running>failed",
  "running>cancelled",
]);

describe("task state machine", () => {
  for (const from of ALL)
    for (const to of ALL) {
      const ok = ALLOWED.has(`${from}>${to}`);
      it(`${from} → ${to} is ${ok ? "allowed" : "forbidden"}`, () => {
        expect(canTransition(from, to)).toBe(ok);
        if (ok) expect(() => assertTransition(from, to)).not.toThrow();
        else expect(() => assertTransition(from, to)).toThrow(IllegalTransition);
      });
    }

  it("knows which states are final", () => {
    expect(ALL.filter(isTerminal)).toEqual(["completed", "failed", "cancelled"]);
  });
});
