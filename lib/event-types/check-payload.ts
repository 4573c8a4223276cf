import type { ErrorObject } from "ajv";
import { validatorFor } from "./check-schema";

// Checks a sample payload against its event type's schema (the newest version), for "Send
// sample" with a payload of the integrator's own. One module for both sides: the portal's Send
// page runs it on every keystroke and the send-example and preview-example routes run it again,
// so what the page accepts is exactly what the server accepts. Each problem names the path of
// the value that is wrong (["order", "lines", 0, "sku"]), which the page shows on the field and
// the server turns into a 422's `loc`. Published messages are not checked (Svix does not either):
// only samples, which exist to show the schema's shape.

export type PayloadProblem = { path: (string | number)[]; message: string };
export type PayloadCheck = { ok: true; payload: Record<string, unknown> } | { ok: false; problems: PayloadProblem[] };
export type PayloadChecker = (payload: unknown) => PayloadCheck;

/** Enough to fix a payload with; a payload of the wrong shape can have hundreds. */
const MAX_PROBLEMS = 10;

/**
 * A checker for one schema, compiled once (the page checks every keystroke). No schema, or one
 * ajv cannot compile (stored before the API checked schemas, or with a pattern the linear-time
 * engine cannot run), checks only that the payload is an object: the integrator cannot fix the
 * operator's schema, so it does not block them.
 */
export function payloadChecker(schema: Record<string, unknown> | undefined): PayloadChecker {
  let validate: ReturnType<ReturnType<typeof validatorFor>["compile"]> | null = null;
  if (schema) {
    try {
      validate = validatorFor(schema, true).compile(schema);
    } catch {
      validate = null;
    }
  }
  return (payload) => {
    if (!payload || typeof payload !== "object" || Array.isArray(payload))
      return { ok: false, problems: [{ path: [], message: "the payload must be a JSON object ({…})" }] };
    if (validate && !validate(payload)) return { ok: false, problems: problemsOf(validate.errors ?? []) };
    return { ok: true, payload: payload as Record<string, unknown> };
  };
}

const compiled = new Map<string, PayloadChecker>();
const COMPILED_MAX = 500;

/**
 * payloadChecker, compiled once per schema in this process: the server checks a sample on each
 * pause in the integrator's typing (preview-example), and compiling costs far more than checking.
 */
export function cachedPayloadChecker(schema: Record<string, unknown> | undefined): PayloadChecker {
  const key = schema ? JSON.stringify(schema) : "";
  let check = compiled.get(key);
  if (!check) {
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    check = payloadChecker(schema);
    compiled.set(key, check);
  }
  return check;
}

/** The same check on the text of a payload being edited: JSON first, then the schema. */
export function checkPayloadText(text: string, check: PayloadChecker): PayloadCheck {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { ok: false, problems: [{ path: [], message: `not valid JSON: ${(e as Error).message}` }] };
  }
  return check(parsed);
}

/** "order_id: must be string"; the whole payload is "payload". */
export function describeProblem(p: PayloadProblem): string {
  return `${p.path.length ? p.path.join(".") : "payload"}: ${p.message}`;
}

function problemsOf(errors: ErrorObject[]): PayloadProblem[] {
  const out: PayloadProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    // oneOf/anyOf add a summary error after their branches' own; the branches say more.
    if (e.keyword === "oneOf" || e.keyword === "anyOf" || e.keyword === "if") continue;
    const p = problemOf(e);
    const key = `${p.path.join("/")} ${p.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
    if (out.length === MAX_PROBLEMS) break;
  }
  return out.length ? out : [{ path: [], message: "does not match the event type's schema" }];
}

function problemOf(e: ErrorObject): PayloadProblem {
  const path: (string | number)[] = e.instancePath
    .split("/")
    .slice(1)
    .map((seg) => seg.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((seg) => (/^(0|[1-9]\d*)$/.test(seg) ? Number(seg) : seg));
  const params = e.params as Record<string, unknown>;
  // ajv reports these on the parent object; the field that is missing or extra is the one to name.
  if (e.keyword === "required") return { path: [...path, String(params.missingProperty)], message: "is required" };
  if (e.keyword === "additionalProperties")
    return { path: [...path, String(params.additionalProperty)], message: "is not a field of this event type" };
  if (e.keyword === "enum" && Array.isArray(params.allowedValues))
    return { path, message: `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}` };
  return { path, message: e.message ?? "does not match the schema" };
}
