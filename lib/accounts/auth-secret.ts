import { hkdfSync } from "node:crypto";
import { env } from "../env";

// next-auth's secret (it encrypts the session cookie and salts email-link token hashes), derived
// from HERALD_ENCRYPTION_KEY so an install has one key to keep, not two. Rotating the encryption
// key therefore also signs everyone out, which is what a key rotation should do.
let cached: { from: string; secret: string } | undefined;

export function authSecret(): string {
  const key = env().HERALD_ENCRYPTION_KEY;
  if (cached?.from !== key)
    cached = { from: key, secret: Buffer.from(hkdfSync("sha256", Buffer.from(key, "base64"), "herald", "next-auth secret", 32)).toString("base64url") };
  return cached.secret;
}

/** Session cookies are Secure (and __Secure- prefixed) when Herald is served over https. */
export const secureCookies = () => env().HERALD_PUBLIC_URL.startsWith("https:");

export const sessionCookieName = () => `${secureCookies() ? "__Secure-" : ""}next-auth.session-token`;
