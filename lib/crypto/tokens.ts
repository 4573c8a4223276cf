import { createHash, randomBytes } from "node:crypto";

/** A random URL-safe token with a readable prefix, e.g. `hk_live_…`. */
export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString("base64url")}`;
}

/** API keys and portal tokens are stored as sha256 hex only. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function sha256Hex(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}
