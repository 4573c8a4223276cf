import { describe, expect, it } from "vitest";
import { ApiFailure, fieldError, fieldErrorText } from "./api-client";

// A 422's items reach people as sentences naming the field, not as zod paths ("status.0: …").
describe("a 422 item as a person reads it", () => {
  it("names a query parameter and which of its values is wrong", () => {
    expect(fieldErrorText({ loc: ["query", "status", 0], msg: "must be one of succeeded, failed", type: "value_error" })).toBe(
      'The "status" parameter (value 1) must be one of succeeded, failed.',
    );
  });

  it("names a body field, nested ones by their path", () => {
    expect(fieldErrorText({ loc: ["body", "url"], msg: "is required", type: "value_error" })).toBe('The "url" field is required.');
    expect(fieldErrorText({ loc: ["body", "payload", "amount"], msg: "Expected number, received string", type: "type_error" })).toBe(
      'The "payload.amount" field: Expected number, received string.',
    );
    expect(fieldErrorText({ loc: ["body", "filterTypes", 2], msg: "must be at most 256 characters", type: "value_error" })).toBe(
      'The "filterTypes" field (value 3) must be at most 256 characters.',
    );
  });

  it("an error about the whole body says so", () => {
    expect(fieldErrorText({ loc: ["body"], msg: "Invalid input.", type: "value_error" })).toBe("The request: Invalid input.");
  });
});

describe("a field's errors under the field", () => {
  const failure = new ApiFailure(422, "validation", "", [
    { loc: ["body", "portalEmbedOrigins", 0], msg: '"a" is not an http(s) origin', type: "value_error" },
    { loc: ["body", "name"], msg: "is required.", type: "value_error" },
    { loc: ["body", "portalEmbedOrigins", 2], msg: '"c" has a wildcard', type: "value_error" },
  ]);

  it("gives every bad entry of a list field, not only the first", () => {
    expect(fieldError(failure, "portalEmbedOrigins")).toBe('"a" is not an http(s) origin. "c" has a wildcard.');
  });

  it("gives a single error as the API wrote it, and nothing for a field the API did not name", () => {
    expect(fieldError(failure, "name")).toBe("is required.");
    expect(fieldError(failure, "url")).toBeUndefined();
    expect(fieldError(new Error("x"), "name")).toBeUndefined();
  });
});
