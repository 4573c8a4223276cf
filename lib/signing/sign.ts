import { createHmac, sign as edSign, type KeyObject } from "node:crypto";
import { ed25519PrivateKey, secretBytes, SECRET_PREFIX } from "./secrets";

// Standard Webhooks signatures (https://www.standardwebhooks.com): the signed content is
// `{webhook-id}.{webhook-timestamp}.{body}` over the exact body bytes sent.
// - whsec_ secrets: `v1,` + base64(HMAC-SHA256(secret bytes, content))
// - whsk_ ed25519 keys: `v1a,` + base64(ed25519 signature of content)
// Several keys (a rotation window) give several signatures, space-separated.

export const SIGNATURE_HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;

const edKeys = new Map<string, KeyObject>();
const ED_KEY_CACHE_MAX = 1_000;

function edKey(secretKey: string): KeyObject {
  let key = edKeys.get(secretKey);
  if (!key) {
    if (edKeys.size >= ED_KEY_CACHE_MAX) edKeys.clear();
    key = ed25519PrivateKey(secretKey);
    edKeys.set(secretKey, key);
  }
  return key;
}

function signedContent(id: string, timestamp: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${id}.${timestamp}.`, "utf8"), body]);
}

/** One signature (`v1,…` or `v1a,…`) of `body` for a whsec_ secret or a whsk_ ed25519 key. */
export function signature(key: string, id: string, timestamp: number, body: Buffer): string {
  const content = signedContent(id, timestamp, body);
  if (key.startsWith("whsk_")) return "v1a," + edSign(null, content, edKey(key)).toString("base64");
  if (!key.startsWith(SECRET_PREFIX)) throw new Error("signing key must be a whsec_ secret or a whsk_ key");
  return "v1," + createHmac("sha256", secretBytes(key)).update(content).digest("base64");
}

/** The webhook-signature header value: one signature per key, space-separated. */
export function signatureHeader(keys: string[], id: string, timestamp: number, body: Buffer): string {
  if (keys.length === 0) throw new Error("at least one signing key is needed");
  return keys.map((k) => signature(k, id, timestamp, body)).join(" ");
}

/**
 * The signing headers for a webhook: `webhook-*` and the same values as `svix-*` (so receivers
 * using the Svix libraries verify unchanged). Reusable for any signed callback: pass the exact
 * bytes you will send as `body`.
 */
export function signWebhook(input: {
  id: string;
  body: Buffer | string;
  secrets: string[];
  timestamp?: number;
}): Record<string, string> {
  const body = typeof input.body === "string" ? Buffer.from(input.body, "utf8") : input.body;
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000);
  const sig = signatureHeader(input.secrets, input.id, timestamp, body);
  const ts = String(timestamp);
  return {
    "webhook-id": input.id,
    "webhook-timestamp": ts,
    "webhook-signature": sig,
    "svix-id": input.id,
    "svix-timestamp": ts,
    "svix-signature": sig,
  };
}
