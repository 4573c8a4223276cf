// A realistic sample payload for an event type, so integrators see a real body before writing
// code: the schema's own `examples` when it has them, otherwise one derived from the schema.

type Schema = Record<string, unknown>;

const MAX_DEPTH = 8;

/** The schema of the event type's newest version (versions are numbers), if it has any. */
export function latestSchema(schemas: unknown): Schema | undefined {
  const all = (schemas ?? {}) as Record<string, Schema>;
  const latest = Object.keys(all).sort((a, b) => Number(b) - Number(a))[0];
  return latest !== undefined ? all[latest] : undefined;
}

export function examplePayload(schemas: unknown, version?: string): Record<string, unknown> {
  const schema = version !== undefined ? ((schemas ?? {}) as Record<string, Schema>)[version] : latestSchema(schemas);
  if (!schema) return {};
  const value = exampleFor(schema, schema, 0);
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}

/**
 * The `index`-th of the latest schema's own `examples` (Svix's `exampleIndex`); index 0 falls
 * back to a derived example. null when there is no such example.
 */
export function exampleAt(schemas: unknown, index: number): Record<string, unknown> | null {
  if (index === 0) return examplePayload(schemas);
  const examples = latestSchema(schemas)?.examples;
  const found: unknown = Array.isArray(examples) ? examples[index] : undefined;
  return found && typeof found === "object" && !Array.isArray(found) ? (found as Record<string, unknown>) : null;
}

function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split("/")) node = (node as Record<string, unknown> | undefined)?.[part];
  return node as Schema | undefined;
}

function exampleFor(schema: Schema, root: Schema, depth: number): unknown {
  if (depth > MAX_DEPTH) return null;
  if (typeof schema.$ref === "string") {
    const target = resolveRef(root, schema.$ref);
    return target ? exampleFor(target, root, depth + 1) : null;
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ("example" in schema) return schema.example;
  if ("const" in schema) return schema.const;
  if ("default" in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ["oneOf", "anyOf", "allOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      if (key === "allOf")
        return Object.assign({}, ...options.map((o) => exampleFor(o as Schema, root, depth + 1) as object));
      return exampleFor(options[0] as Schema, root, depth + 1);
    }
  }
  const type: unknown = Array.isArray(schema.type) ? (schema.type as unknown[]).find((t) => t !== "null") : schema.type;
  switch (type ?? (schema.properties ? "object" : undefined)) {
    case "object": {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, exampleFor(v, root, depth + 1)]));
    }
    case "array": {
      const items = schema.items as Schema | undefined;
      return items ? [exampleFor(items, root, depth + 1)] : [];
    }
    case "string":
      return stringExample(schema);
    case "integer":
      return typeof schema.minimum === "number" ? Math.ceil(schema.minimum) : 42;
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 9.99;
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return null;
  }
}

function stringExample(schema: Schema): string {
  switch (schema.format) {
    case "date-time":
      return "2026-01-15T10:30:00Z";
    case "date":
      return "2026-01-15";
    case "email":
      return "jane@example.com";
    case "uri":
    case "url":
      return "https://example.com/resource/123";
    case "uuid":
      return "3f2b1c9e-8a4d-4e6b-9c1a-2d5e7f8a9b0c";
    default: {
      const min = typeof schema.minLength === "number" ? schema.minLength : 0;
      const s = "example";
      return s.length >= min ? s : s.padEnd(min, "x");
    }
  }
}
