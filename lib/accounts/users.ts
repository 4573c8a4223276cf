import { db } from "../db";
import { badRequest } from "../http/errors";
import { newId } from "../ids";
import { normalizeEmail } from "./adapter";
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./password";

// Users are created by invitation (members.ts), by bootstrap, or by tests; never by signing in.

export function assertPasswordAcceptable(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw badRequest(`The password must have at least ${MIN_PASSWORD_LENGTH} characters`, "weak_password");
  if (password.length > MAX_PASSWORD_LENGTH) throw badRequest(`The password must have at most ${MAX_PASSWORD_LENGTH} characters`, "bad_password");
}

/** The user with this email, created when missing; `password` (if given) replaces theirs. */
export async function ensureUser(email: string, opts: { name?: string | null; password?: string } = {}) {
  const normalized = normalizeEmail(email);
  if (opts.password !== undefined) assertPasswordAcceptable(opts.password);
  const passwordHash = opts.password !== undefined ? await hashPassword(opts.password) : undefined;
  const existing = await db.user.findUnique({ where: { email: normalized }, select: { id: true } });
  if (existing) {
    if (passwordHash) await db.user.update({ where: { id: existing.id }, data: { passwordHash } });
    return { id: existing.id, email: normalized, created: false };
  }
  // Concurrent invitations of the same email: the unique index decides, in one statement, and
  // the loser gets the winner's row. (Prisma's upsert reads, then creates: the loser of a race
  // hit the unique violation, a 500.) `created` is whether this call made the row.
  const [row] = await db.$queryRaw<{ id: string; created: boolean }[]>`
    INSERT INTO "user" (id, email, name, password_hash, created_at, updated_at)
    VALUES (${newId("user")}, ${normalized}, ${opts.name ?? null}, ${passwordHash ?? null}, now(), now())
    ON CONFLICT (email) DO UPDATE SET password_hash = COALESCE(EXCLUDED.password_hash, "user".password_hash), updated_at = now()
    RETURNING id, (xmax = 0) AS created`;
  return { id: row!.id, email: normalized, created: row!.created };
}

export async function setPassword(userId: string, password: string): Promise<void> {
  assertPasswordAcceptable(password);
  await db.user.update({ where: { id: userId }, data: { passwordHash: await hashPassword(password) } });
}

/** Whether the user can sign in with a password (an invited user has none until they set one). */
export async function hasPassword(userId: string): Promise<boolean> {
  const u = await db.user.findUnique({ where: { id: userId }, select: { passwordHash: true } });
  return Boolean(u?.passwordHash);
}
