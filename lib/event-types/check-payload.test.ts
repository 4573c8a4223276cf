import { describe, expect, it } from "vitest";
import { checkPayloadText, describeProblem, payloadChecker } from "./check-payload";

const schema = {
  type: "object",
  required: ["order_id", "amount"],
  additionalProperties: false,
  properties: {
    order_id: { type: "string" },
    amount: { type: "integer", minimum: 1 },
    currency: { type: "string", enum: ["EUR", "USD"] },
    lines: { type: "array", items: { type: "object", required: ["sku"], properties: { sku: { type: "string" } } } },
  },
};

describe("payloadChecker", () => {
  const check = payloadChecker(schema);
  const problems = (payload: unknown) => {
    const r = check(payload);
    if (r.ok) throw new Error(`accepted ${JSON.stringify(payload)}`);
    return r.problems.map(describeProblem);
  };

  it("accepts a payload that matches", () => {
    expect(check({ order_id: "o1", amount: 5, lines: [{ sku: "a" }] })).toEqual({ ok: true, payload: { order_id: "o1", amount: 5, lines: [{ sku: "a" }] } });
  });

  it("names the path of every wrong value, missing and extra fields included", () => {
    expect(problems({ order_id: 7, amount: 0 })).toEqual(["order_id: must be string", "amount: must be >= 1"]);
    expect(problems({ amount: 5 })).toEqual(["order_id: is required"]);
    expect(problems({ order_id: "o", amount: 5, colour: "red" })).toEqual(["colour: is not a field of this event type"]);
    expect(problems({ order_id: "o", amount: 5, currency: "GBP" })).toEqual(['currency: must be one of "EUR", "USD"']);
    expect(check({ order_id: "o", amount: 5, lines: [{ sku: "a" }, {}] })).toMatchObject({ ok: false, problems: [{ path: ["lines", 1, "sku"], message: "is required" }] });
  });

  it("wants an object, and says so for the whole payload", () => {
    expect(problems([1])).toEqual(["payload: the payload must be a JSON object ({…})"]);
    expect(checkPayloadText("{ nope", check)).toMatchObject({ ok: false, problems: [{ path: [], message: expect.stringMatching(/^not valid JSON/) }] });
  });

  it("without a usable schema only checks for an object", () => {
    expect(payloadChecker(undefined)({ anything: true }).ok).toBe(true);
    expect(payloadChecker({ properties: { a: { $ref: "#/definitions/missing" } } })({ a: 1 }).ok).toBe(true);
    expect(payloadChecker(undefined)("text").ok).toBe(false);
  });

  it("matches patterns in linear time: a backtracking pattern cannot hold the server", () => {
    // JavaScript's engine needs about 2^n steps for "^(a+)+$" against n a's and a "b": 60 would
    // never finish (the test's timeout is the failure). RE2 answers at once, and rightly.
    const check = payloadChecker({ type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } } });
    expect(check({ code: `${"a".repeat(60)}b` })).toMatchObject({ ok: false, problems: [{ path: ["code"] }] });
    expect(check({ code: "aaaa" }).ok).toBe(true);
    const keyed = payloadChecker({ type: "object", patternProperties: { "^x-": { type: "string" } } });
    expect(keyed({ "x-a": 1 })).toMatchObject({ ok: false, problems: [{ path: ["x-a"] }] });
  });
});
