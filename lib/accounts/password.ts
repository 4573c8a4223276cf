import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

// Passwords are hashed with scrypt (memory-hard, in node:crypto): N=2^15, r=8, p=1 takes 32 MiB
// and ~50-100 ms here, so a stolen database is slow to brute-force. The parameters are stored in
// the hash, so they can be raised later without invalidating existing passwords.
// Format: scrypt$<N>$<r>$<p>$<salt b64url>$<key b64url>

const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LEN = 32;
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: n, r, p, maxmem: 128 * n * r * 2 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LEN, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

// A hash of nothing, computed once, so an unknown email costs the same scrypt as a wrong password
// (no timing difference tells which emails have accounts).
let dummyHash: Promise<string> | undefined;

/** True when `password` matches `stored`; with stored = null, spends the same time and says false. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  const parts = (stored ?? (await dummyHash)).split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, n, r, p, salt, key] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(key, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), Number(n), Number(r), Number(p));
  return stored !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A readable one-time password for first-run owners (about 120 bits). */
export function generatePassword(): string {
  return randomBytes(15).toString("base64url");
}
