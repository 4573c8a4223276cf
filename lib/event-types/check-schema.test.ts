import { describe, expect, it } from "vitest";
import { checkSchemaText } from "./check-schema";

describe("checkSchemaText", () => {
  it("accepts draft-07 and 2020-12 schemas, with annotations of their own", () => {
    expect(checkSchemaText(JSON.stringify({ type: "object", properties: { id: { type: "string", examples: ["x"] } }, "x-owner": "billing" })).ok).toBe(true);
    expect(checkSchemaText(JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", $defs: { a: { type: "string" } }, properties: { a: { $ref: "#/$defs/a" } } })).ok).toBe(true);
  });

  it("names what is wrong: JSON, shape, meta-schema, unresolvable refs", () => {
    const bad = (text: string) => {
      const r = checkSchemaText(text);
      if (r.ok) throw new Error(`accepted ${text}`);
      return r.error;
    };
    expect(bad("{ type: object")).toMatch(/^Not valid JSON/);
    expect(bad("[1]")).toMatch(/is an object/);
    expect(bad(JSON.stringify({ type: "strnig" }))).toMatch(/^Not a valid JSON Schema: \/type/);
    expect(bad(JSON.stringify({ type: "object", required: "id" }))).toMatch(/required/);
    expect(bad(JSON.stringify({ properties: { a: { $ref: "#/definitions/missing" } } }))).toMatch(/^Not a usable JSON Schema/);
  });
});
