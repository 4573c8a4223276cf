import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createTokenSigner } from "./signed-token";

describe("signed tokens", () => {
  const signer = createTokenSigner(randomBytes(32));

  it("round-trips claims for the same purpose before expiry", () => {
    const t = signer.sign("task-result", { t: "qtask_1" }, 60);
    const v = signer.verify<{ t: string }>(t, "task-result");
    expect(v.ok && v.claims.t).toBe("qtask_1");
  });

  it("refuses another purpose, a tampered body or signature, another key and an expired token", () => {
    const t = signer.sign("task-result", { t: "qtask_1" }, 60);
    expect(signer.verify(t, "task-events")).toEqual({ ok: false, reason: "purpose" });
    const [body, sig] = t.split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify({ t: "qtask_2", p: "task-result", x: 9e9 })).toString("base64url");
    expect(signer.verify(`${forged}.${sig}`, "task-result")).toEqual({ ok: false, reason: "signature" });
    expect(signer.verify(`${body}.${sig.slice(0, -2)}AA`, "task-result")).toEqual({ ok: false, reason: "signature" });
    expect(createTokenSigner(randomBytes(32)).verify(t, "task-result")).toEqual({ ok: false, reason: "signature" });
    expect(signer.verify(t, "task-result", Date.now() + 61_000)).toEqual({ ok: false, reason: "expired" });
    expect(signer.verify("nonsense", "task-result")).toEqual({ ok: false, reason: "malformed" });
  });
});
