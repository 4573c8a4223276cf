import { describe, expect, it } from "vitest";
import { parseJson } from "./read-body";
import { ValidationError } from "./errors";

// What PostgreSQL cannot store is refused with the path of the value; everything else passes.
// (test/bad-input checks the same through the API, where a request may leave no trace.)

const itemsOf = (text: string) => {
  try {
    parseJson(text);
  } catch (e) {
    if (e instanceof ValidationError) return e.items;
    throw e;
  }
  return [];
};

describe("parseJson", () => {
  it("accepts surrogate pairs and other characters, escaped or not", () => {
    expect(parseJson('{"note":"\\ud83d\\ude00 😀 é \\u00e9"}')).toEqual({ note: "😀 😀 é é" });
  });

  it("refuses a lone surrogate in a value or a key, naming where", () => {
    expect(itemsOf('{"payload":{"note":"a\\ud800b"}}')).toEqual([
      expect.objectContaining({ loc: ["body", "payload", "note"], msg: expect.stringMatching(/lone UTF-16 surrogate/) }),
    ]);
    expect(itemsOf('{"list":["ok","\\udc00"]}')).toEqual([expect.objectContaining({ loc: ["body", "list", 1] })]);
    expect(itemsOf('{"p":{"\\ud800":1}}')).toEqual([
      expect.objectContaining({ loc: ["body", "p"], msg: expect.stringMatching(/^keys must not contain a lone/) }),
    ]);
  });
});
