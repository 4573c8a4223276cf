import { sha256Hex } from "../crypto/tokens";
import { ApiError } from "../http/errors";
import { queuePrefix, redis as sharedRedis } from "../queue/connection";

// Failed sign-in attempts, counted in Redis so the limit holds across web processes: at most
// SIGN_IN_MAX_FAILURES per email and per client address within SIGN_IN_WINDOW_S. Past the limit
// even the right password is refused until the window ends (a guesser learns nothing).
// Emails and addresses are hashed in the key names (no personal data in Redis key listings).

export const SIGN_IN_MAX_FAILURES = 10;
export const SIGN_IN_WINDOW_S = 15 * 60;

export class TooManyAttempts extends ApiError {
  constructor(retryAfterS: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterS / 60));
    super(
      429,
      "too_many_sign_in_attempts",
      `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      { "retry-after": String(retryAfterS) },
    );
  }
}

const keys = (email: string, address: string | null) => {
  const prefix = `${queuePrefix()}:signin`;
  const out = [`${prefix}:email:${sha256Hex(email.toLowerCase())}`];
  if (address) out.push(`${prefix}:addr:${sha256Hex(address)}`);
  return out;
};

/** The shared client fails fast while it connects (no offline queue): wait for it first. */
async function client() {
  const c = sharedRedis();
  if (c.status !== "ready") await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("Redis is not reachable")), 5_000);
    c.once("ready", () => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });
  return c;
}

/** Throws TooManyAttempts when the email or the address has used up its failures. */
export async function assertSignInAllowed(email: string, address: string | null): Promise<void> {
  const redis = await client();
  for (const key of keys(email, address)) {
    const count = Number((await redis.get(key)) ?? 0);
    if (count >= SIGN_IN_MAX_FAILURES) {
      const ttl = await redis.ttl(key);
      throw new TooManyAttempts(ttl > 0 ? ttl : SIGN_IN_WINDOW_S);
    }
  }
}

/** Counts one failure against the email and the address (the window starts at the first). */
export async function recordSignInFailure(email: string, address: string | null): Promise<void> {
  const multi = (await client()).multi();
  for (const key of keys(email, address)) multi.incr(key).expire(key, SIGN_IN_WINDOW_S, "NX");
  await multi.exec();
}
