import { z } from "zod";

// Request schemas in the OpenAPI document come from the very zod schemas the routes validate
// with, so the document cannot drift from what the API accepts. OpenAPI 3.1 uses JSON Schema
// 2020-12, which is what zod emits.

export type JsonSchema = { [key: string]: unknown };

const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

/** Drops what only clutters a reader's view: the $schema line, regexes that restate a format, ±2^53 bounds. */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (!node || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node as JsonSchema)) {
    if (k === "$schema") continue;
    if (k === "pattern" && "format" in (node as JsonSchema)) continue;
    if ((k === "minimum" || k === "maximum") && Math.abs(v as number) >= SAFE_INTEGER) continue;
    out[k] = tidy(v);
  }
  return out;
}

/** The JSON Schema of what a zod schema accepts (its input side). */
export function inputSchema(schema: z.ZodType): JsonSchema {
  return tidy(z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" })) as JsonSchema;
}

/** One OpenAPI query parameter per property of a zod object. */
export function queryParameters(schema: z.ZodObject): JsonSchema[] {
  const json = inputSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => {
    const { description, ...rest } = s;
    return {
      name,
      in: "query",
      required: (json.required ?? []).includes(name) && !("default" in s),
      ...(typeof description === "string" ? { description } : {}),
      schema: rest,
      // Lists: repeat the key, use key[], or separate with commas.
      ...(name === "event_types" ? { style: "form", explode: true } : {}),
    };
  });
}

export const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: "null" }] });
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
