import type { z } from "zod";
import { ValidationError, type ValidationItem } from "./errors";

/** Parses with zod; failures become a Svix-shaped 422 whose `loc` starts with `where`. */
export function parseOr422<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const items: ValidationItem[] = result.error.issues.map((issue) => ({
    loc: [where, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
    msg: issue.message,
    type: issue.code === "invalid_type" ? "type_error" : "value_error",
  }));
  throw new ValidationError(items);
}
