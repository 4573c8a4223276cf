import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { env } from "../env";

// Short, tamper-proof, expiring tokens for links and confirmations: base64url(JSON claims) + "." +
// base64url(HMAC-SHA256). The key is derived from HERALD_ENCRYPTION_KEY for this purpose only.
// Each token names its purpose, so a download link can never be used as a replay confirmation.

export type TokenPurpose = "task-events" | "task-result" | "replay-confirm" | "unsubscribe";

export type TokenClaims = Record<string, unknown> & { p: TokenPurpose; x: number };

export type TokenVerdict<C> =
  { ok: true; claims: C } | { ok: false; reason: "malformed" | "signature" | "purpose" | "expired" };

export function createTokenSigner(key: Buffer) {
  const mac = (data: string) => createHmac("sha256", key).update(data).digest();
  return {
    sign(purpose: TokenPurpose, claims: Record<string, unknown>, ttlSeconds: number, now = Date.now()): string {
      const body = Buffer.from(
        JSON.stringify({ ...claims, p: purpose, x: Math.floor(now / 1000) + ttlSeconds }),
      ).toString("base64url");
      return `${body}.${mac(body).toString("base64url")}`;
    },
    verify<C extends Record<string, unknown>>(
      token: string,
      purpose: TokenPurpose,
      now = Date.now(),
    ): TokenVerdict<C & TokenClaims> {
      const [body, sig, extra] = token.split(".");
      if (!body || !sig || extra !== undefined) return { ok: false, reason: "malformed" };
      const given = Buffer.from(sig, "base64url");
      const expected = mac(body);
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        return { ok: false, reason: "signature" };
      let claims: C & TokenClaims;
      try {
        claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as C & TokenClaims;
      } catch {
        return { ok: false, reason: "malformed" };
      }
      if (claims.p !== purpose) return { ok: false, reason: "purpose" };
      if (typeof claims.x !== "number" || claims.x * 1000 <= now) return { ok: false, reason: "expired" };
      return { ok: true, claims };
    },
  };
}

export type TokenSigner = ReturnType<typeof createTokenSigner>;

let signer: TokenSigner | undefined;

export function tokenSigner(): TokenSigner {
  signer ??= createTokenSigner(
    Buffer.from(
      hkdfSync("sha256", Buffer.from(env().HERALD_ENCRYPTION_KEY, "base64"), "", "herald signed tokens v1", 32),
    ),
  );
  return signer;
}
