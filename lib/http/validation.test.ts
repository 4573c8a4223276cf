import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ValidationError } from "./errors";
import { parseOr422 } from "./validation";

const msgOf = (schema: z.ZodType, value: unknown) => {
  try {
    parseOr422(schema, value, "body");
  } catch (e) {
    if (e instanceof ValidationError) return e.items.map((i) => `${i.loc.join(".")}: ${i.msg}`);
    throw e;
  }
  return [];
};

describe("parseOr422", () => {
  it("says limits in plain words where the schema gives no message of its own", () => {
    expect(msgOf(z.object({ name: z.string().max(128) }), { name: "x".repeat(129) })).toEqual(["body.name: must have at most 128 characters"]);
    expect(msgOf(z.object({ name: z.string().min(1) }), { name: "" })).toEqual(["body.name: must not be empty"]);
    expect(msgOf(z.object({ tags: z.array(z.string()).max(2) }), { tags: ["a", "b", "c"] })).toEqual(["body.tags: must have at most 2 items"]);
    expect(msgOf(z.object({ n: z.number().gt(0) }), { n: 0 })).toEqual(["body.n: must be more than 0"]);
    expect(msgOf(z.object({ n: z.number().max(9) }), { n: 10 })).toEqual(["body.n: must be at most 9"]);
    expect(msgOf(z.object({ code: z.string().length(5) }), { code: "abcd" })).toEqual(["body.code: must have exactly 5 characters"]);
    expect(msgOf(z.object({ name: z.string().max(3, "keep it short") }), { name: "long" })).toEqual(["body.name: keep it short"]);
  });
});
