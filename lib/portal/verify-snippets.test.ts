import { describe, expect, it } from "vitest";
import { SIGNATURE_HEADERS } from "../signing/sign";
import { CLASSIC_MISTAKES, STANDARD_HEADERS, verifySnippets } from "./verify-snippets";

describe("verification snippets", () => {
  it("default to the header names the delivery engine signs with", () => {
    expect([STANDARD_HEADERS.id, STANDARD_HEADERS.timestamp, STANDARD_HEADERS.signature]).toEqual([...SIGNATURE_HEADERS]);
  });

  it("use the endpoint's header names in every language", () => {
    const headers = { id: "x-hook-id", timestamp: "x-hook-ts", signature: "x-hook-sig" };
    for (const s of verifySnippets({ headers, algorithm: "hmac_sha256" })) {
      const names = s.language === "ruby" ? ["HTTP_X_HOOK_ID", "HTTP_X_HOOK_TS", "HTTP_X_HOOK_SIG"] : Object.values(headers);
      for (const n of names) expect(s.code, `${s.language} ${n}`).toContain(n);
      expect(s.code).not.toContain("webhook-id");
    }
  });

  it("come in the five languages, HMAC and ed25519, standard library except where it has no ed25519", () => {
    for (const algorithm of ["hmac_sha256", "ed25519"] as const) {
      const snippets = verifySnippets({ algorithm });
      expect(snippets.map((s) => s.language)).toEqual(["node", "python", "go", "ruby", "php"]);
      for (const s of snippets) {
        expect(s.code, s.language).toMatch(algorithm === "ed25519" ? /["']v1a["']/ : /["']v1["']/);
        if (algorithm === "hmac_sha256" || s.language === "node" || s.language === "go" || s.language === "php") expect(s.dependencies, s.language).toBeNull();
      }
    }
    expect(verifySnippets({ algorithm: "hmac_sha256" }).find((s) => s.language === "python")!.code).not.toMatch(/^\s*(import|from)\s+(cryptography|nacl|svix|standardwebhooks)/m);
  });

  it("spell out the three classic mistakes", () => {
    expect(CLASSIC_MISTAKES.map((m) => m.title)).toEqual([
      "Verify every request",
      "Verify the raw body, before any JSON parser",
      "Keep the webhook route out of session middleware",
    ]);
  });
});
