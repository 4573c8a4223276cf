import { z } from "zod";
import { ValidationError, type ValidationItem } from "./errors";

// Limits in plain words for every schema that does not give its own message: zod's defaults read
// as a library's ("Too big: expected string to have <=128 characters").
const UNITS: Record<string, string> = { string: "characters", array: "items", set: "items", file: "bytes" };
z.config({
  customError: (iss) => {
    if (iss.code !== "too_big" && iss.code !== "too_small") return undefined;
    const big = iss.code === "too_big";
    const limit = Number(big ? iss.maximum : iss.minimum);
    const unit = UNITS[iss.origin];
    if (!unit && iss.origin !== "number" && iss.origin !== "int") return undefined;
    if (unit && !big && limit === 1 && !iss.exact) return iss.origin === "string" ? "must not be empty" : "must not be empty: give at least one";
    const bound = iss.exact ? "exactly" : iss.inclusive === false ? (big ? "less than" : "more than") : big ? "at most" : "at least";
    return unit ? `must have ${bound} ${limit} ${unit}` : `must be ${bound} ${limit}`;
  },
});

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
