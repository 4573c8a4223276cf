import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

// AES-256-GCM for secrets at rest (endpoint signing secrets). Format: v1.<iv>.<tag>.<ciphertext>,
// each base64url. A database dump holds only these; without HERALD_ENCRYPTION_KEY they are noise.

/**
 * A sealed value this key cannot open: the database was set up with another HERALD_ENCRYPTION_KEY
 * (another installation's database, or a lost .env). Not a request's fault and nothing a retry
 * mends: the operator has to start Herald with the key the secrets were sealed with.
 */
export class WrongKeyError extends Error {
  constructor() {
    super(
      "A secret in the database was sealed with another HERALD_ENCRYPTION_KEY than this server's: start Herald with the key this database was set up with (its .env), or point DATABASE_URL at another database",
    );
    this.name = "WrongKeyError";
  }
}

export type SecretBox = {
  seal(plaintext: string): string;
  open(sealed: string): string;
};

export function createSecretBox(keyBase64: string): SecretBox {
  const key = Buffer.from(keyBase64, "base64");
  if (key.length !== 32) throw new Error("encryption key must be 32 bytes");
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return ["v1", iv, tag, ct].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
    },
    open(sealed) {
      const [version, iv, tag, ct] = sealed.split(".");
      if (version !== "v1" || !iv || !tag || ct === undefined) throw new Error("not a sealed secret");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      try {
        return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
      } catch {
        // GCM's tag does not match: another key sealed it (a changed ciphertext, which fails alike,
        // means someone edited the database, and the same advice holds).
        throw new WrongKeyError();
      }
    },
  };
}
