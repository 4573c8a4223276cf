import { describe, expect, it } from "vitest";
import { classify } from "./classify-response";

describe("response classification", () => {
  it.each([
    [200, "success"],
    [204, "success"],
    [299, "success"],
    [301, "retry"],
    [302, "retry"],
    [400, "dead"],
    [401, "dead"],
    [404, "dead"],
    [408, "retry"],
    [410, "gone"],
    [422, "dead"],
    [429, "retry"],
    [500, "retry"],
    [503, "retry"],
    [0, "retry"],
  ])("HTTP %i -> %s", (status, kind) => {
    expect(classify({ status }).kind).toBe(kind);
  });

  it("honours Retry-After only on 429 and 503", () => {
    expect(classify({ status: 429 })).toEqual({ kind: "retry", honourRetryAfter: true });
    expect(classify({ status: 503 })).toEqual({ kind: "retry", honourRetryAfter: true });
    expect(classify({ status: 500 })).toEqual({ kind: "retry", honourRetryAfter: false });
    expect(classify({ status: 404 })).toEqual({ kind: "dead", reason: "http_404" });
  });
});
