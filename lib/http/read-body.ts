import { badRequest, tooLarge } from "./errors";

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
  return Buffer.concat(chunks).toString("utf8");
}

export function parseJson(text: string): unknown {
  if (text.trim() === "") throw badRequest("Request body is empty; a JSON object is required", "invalid_json");
  try {
    return JSON.parse(text);
  } catch (e) {
    throw badRequest(`Request body is not valid JSON: ${(e as Error).message}`, "invalid_json");
  }
}
