import { badRequest, invalid, tooLarge } from "./errors";

export const MAX_BODY_BYTES = 256 * 1024;

/** Reads a request body without ever holding more than `limit` bytes; 413 beyond it. */
export async function readBody(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(`Request body is ${declared} bytes; the limit is ${limit} bytes (256 KiB)`);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(`Request body exceeds the limit of ${limit} bytes (256 KiB)`);
    }
    chunks.push(value);
  }
  try {
    return utf8.decode(Buffer.concat(chunks));
  } catch {
    // Decoding leniently would store U+FFFD in place of the caller's bytes without a word.
    throw badRequest("Request body is not valid UTF-8; send JSON encoded as UTF-8", "invalid_json");
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Deeper JSON than this is refused: nothing real needs it, and it overflows the stack later on. */
export const MAX_JSON_DEPTH = 64;

export function parseJson(text: string): unknown {
  if (text.trim() === "") throw badRequest("Request body is empty; a JSON object is required", "invalid_json");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw badRequest(`Request body is not valid JSON: ${(e as Error).message}`, "invalid_json");
  }
  checkStorable(value);
  return value;
}

/**
 * What PostgreSQL cannot store in text or jsonb (U+0000, and a lone UTF-16 surrogate, which JSON's
 * \uXXXX escapes can spell but is no Unicode character), and deep nesting, which overflows
 * serializers: refused here, with the path of the offending value, before anything is written.
 */
function unstorable(text: string): string | null {
  if (text.includes("\u0000")) return "must not contain the NUL character (\\u0000)";
  if (!text.isWellFormed()) return "must not contain a lone UTF-16 surrogate (a \\ud800–\\udfff escape without its pair)";
  return null;
}

function checkStorable(root: unknown): void {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === "string") {
      const wrong = unstorable(value);
      if (wrong) throw invalid(["body", ...path], wrong);
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (path.length >= MAX_JSON_DEPTH)
      throw invalid(["body", ...path.slice(0, 8), "…"], `is nested more than ${MAX_JSON_DEPTH} levels deep`);
    if (Array.isArray(value)) value.forEach((v, i) => stack.push({ value: v, path: [...path, i] }));
    else
      for (const [k, v] of Object.entries(value)) {
        const wrong = unstorable(k);
        if (wrong) throw invalid(["body", ...path], `keys ${wrong}`);
        stack.push({ value: v, path: [...path, k] });
      }
  }
}
