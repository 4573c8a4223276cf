import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto";

// Endpoint signing keys, Standard Webhooks style:
// - symmetric: `whsec_` + base64 of 24–64 random bytes (HMAC-SHA256 key);
// - asymmetric: `whsk_` + base64(ed25519 seed ‖ public key) is Herald's private signing key,
//   `whpk_` + base64(32-byte public key) is what receivers verify with.

export const SECRET_PREFIX = "whsec_";
export const MIN_SECRET_BYTES = 24;
export const MAX_SECRET_BYTES = 64;

export function generateWebhookSecret(bytes = 32): string {
  return SECRET_PREFIX + randomBytes(bytes).toString("base64");
}

/** The reason a supplied secret is unusable, or null when it is fine. */
export function secretProblem(secret: string): string | null {
  const body = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : null;
  if (body === null) return `must start with ${SECRET_PREFIX}`;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || body.length % 4 !== 0) return "must be whsec_ followed by base64";
  const n = Buffer.from(body, "base64").length;
  if (n < MIN_SECRET_BYTES || n > MAX_SECRET_BYTES)
    return `must encode ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} random bytes (this one has ${n})`;
  return null;
}

/** The HMAC key bytes of a whsec_ secret. */
export function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
}

export function generateEd25519Keys(): { secretKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const seed = privateKey.export({ format: "der", type: "pkcs8" }).subarray(-32);
  const pub = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  return {
    secretKey: "whsk_" + Buffer.concat([seed, pub]).toString("base64"),
    publicKey: "whpk_" + pub.toString("base64"),
  };
}

const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

export function ed25519PrivateKey(secretKey: string) {
  const raw = Buffer.from(secretKey.slice("whsk_".length), "base64").subarray(0, 32);
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, raw]), format: "der", type: "pkcs8" });
}

export function ed25519PublicKey(publicKey: string) {
  const raw = Buffer.from(publicKey.slice("whpk_".length), "base64");
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, raw]), format: "der", type: "spki" });
}
