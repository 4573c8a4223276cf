import { Ajv } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { RE2JS } from "re2js";

// Checks an event type's JSON Schema the way a receiver's validator would read it: JSON that
// parses (checkSchemaText, for the console's editor), an object, valid against its dialect's meta-schema ($schema: 2020-12, 2019-09, else
// draft-07, which is what Svix's catalog uses), and compilable ($refs resolve). Pure, so the
// console runs it on every keystroke. Unknown keywords are allowed (strict: false): catalogs
// carry annotations of their own. The API runs checkSchema on every schema version it is sent
// (lib/event-types/schemas.ts), so what the editor accepts as you type is what the server stores.

export type SchemaCheck = { ok: true; schema: Record<string, unknown> } | { ok: false; error: string };

/**
 * `pattern` and `patternProperties` matched in linear time (RE2), for checking payloads on the
 * server: JavaScript's own engine backtracks, so an operator's `"^(a+)+$"` and a 30-character
 * sample would hold the web process, which serves every environment, for seconds. A pattern
 * RE2 cannot run (lookaround, backreferences) makes the schema fail to compile for payloads.
 */
function linearRegExp(pattern: string) {
  const re = RE2JS.compile(pattern);
  return { test: (text: string) => re.matcher(text).find() };
}
linearRegExp.code = 'require("re2js")'; // ajv asks for it; only standalone code generation uses it

/**
 * An ajv instance for the schema's dialect. `forPayloads`: what checks sample payloads against
 * the schema (check-payload.ts): every error, and patterns matched in linear time.
 */
export function validatorFor(schema: Record<string, unknown>, forPayloads = false) {
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  const options = {
    strict: false,
    allErrors: forPayloads,
    validateFormats: false,
    ...(forPayloads ? { code: { regExp: linearRegExp } } : {}),
  };
  if (dialect.includes("2020-12")) return new Ajv2020(options);
  if (dialect.includes("2019-09")) return new Ajv2019(options);
  return new Ajv(options);
}

export function checkSchemaText(text: string): SchemaCheck {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `Not valid JSON: ${(e as Error).message}` };
  }
  return checkSchema(parsed);
}

export function checkSchema(parsed: unknown): SchemaCheck {
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return { ok: false, error: "A JSON Schema here is an object ({…})" };
  const schema = parsed as Record<string, unknown>;
  try {
    const ajv = validatorFor(schema);
    if (!ajv.validateSchema(schema)) {
      const first = ajv.errors?.[0];
      return { ok: false, error: `Not a valid JSON Schema: ${first ? `${first.instancePath || "(root)"} ${first.message ?? ""}` : "rejected"}`.trim() };
    }
    ajv.compile(schema);
  } catch (e) {
    return { ok: false, error: `Not a usable JSON Schema: ${(e as Error).message}` };
  }
  return { ok: true, schema };
}
