import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSecretBox } from "./secret-box";

describe("secret box", () => {
  const box = createSecretBox(randomBytes(32).toString("base64"));

  it("round-trips and never stores the plaintext", () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const sealed = box.seal(secret);
    expect(sealed).not.toContain("whsec_");
    expect(sealed).not.toContain("MfKQ9r8GKYqrTwjU");
    expect(box.open(sealed)).toBe(secret);
    expect(box.seal(secret)).not.toBe(sealed); // random IV
  });

  it("refuses a tampered ciphertext or another key", () => {
    const sealed = box.seal("whsec_abc");
    const other = createSecretBox(randomBytes(32).toString("base64"));
    expect(() => other.open(sealed)).toThrow();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => box.open(parts.join("."))).toThrow();
  });
});
