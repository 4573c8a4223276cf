import { db } from "../db";
import { ApiError, badRequest } from "../http/errors";
import { verifyPassword } from "./password";
import { assertSignInAllowed, recordSignInFailure } from "./rate-limit";
import { endOtherSessions } from "./sessions";
import { setPassword } from "./users";

// A signed-in user sets a password (someone invited by email has none yet: the invitation's
// "set your password" step, /account?welcome=1) or changes theirs. Changing one needs the
// current password, checked against the same per-email and per-address failure limit as
// signing in, so a borrowed browser is no way to guess it. A new password ends the user's other
// sessions (whoever knew the old one is signed out); this browser stays signed in.

export type PasswordChange = { currentPassword?: string | undefined; newPassword: string };

export async function changePassword(
  user: { id: string; sessionId: string },
  input: PasswordChange,
  clientAddress: string | null,
): Promise<{ hadPassword: boolean; otherSessionsEnded: number }> {
  const row = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { email: true, passwordHash: true } });
  const hadPassword = row.passwordHash !== null;
  if (hadPassword) {
    if (!input.currentPassword) throw badRequest("Enter your current password to change it", "current_password_missing");
    await assertSignInAllowed(row.email, clientAddress);
    if (!(await verifyPassword(input.currentPassword, row.passwordHash))) {
      await recordSignInFailure(row.email, clientAddress);
      throw new ApiError(403, "current_password_wrong", "The current password is wrong");
    }
  }
  await setPassword(user.id, input.newPassword);
  return { hadPassword, otherSessionsEnded: await endOtherSessions(user.id, user.sessionId) };
}
