import { cookies } from "next/headers";
import { db } from "../db";
import type { OperatorRole } from "../auth/principal";
import { oidcConfigured } from "./auth-options";
import { sessionCookieName } from "./auth-secret";
import { mailConfigured } from "./mail";
import { userFromSessionToken } from "./session-cookie";
import { hasPassword } from "./users";

// For server components and layouts: who is signed in and which environments they operate.
// null = not signed in (or the session was ended); the console layout then redirects to
// /sign-in?callbackUrl=…. An integrator-only user gets an empty `environments`.

export type ConsoleSession = {
  user: { id: string; email: string; name: string | null };
  environments: { id: string; name: string; role: OperatorRole }[];
};

export async function getConsoleSession(): Promise<ConsoleSession | null> {
  const jar = await cookies();
  const name = sessionCookieName();
  const token = jar.get(name)?.value ?? (jar.get(`${name}.0`) ? chunked(jar, name) : null);
  const user = await userFromSessionToken(token);
  if (!user) return null;
  const memberships = await db.environmentMembership.findMany({
    where: { userId: user.id },
    select: { role: true, environment: { select: { id: true, name: true } } },
    orderBy: { environmentId: "asc" },
  });
  return { user, environments: memberships.map((m) => ({ id: m.environment.id, name: m.environment.name, role: m.role })) };
}

/**
 * Without email links or single sign-on, a password is the only way back in once a session ends:
 * someone invited with a one-time link who left the welcome page unfinished would be locked out
 * for good. The console sends them to set one first.
 */
export async function mustSetPasswordFirst(userId: string): Promise<boolean> {
  return !mailConfigured() && !oidcConfigured() && !(await hasPassword(userId));
}

function chunked(jar: Awaited<ReturnType<typeof cookies>>, name: string): string {
  let out = "";
  for (let i = 0; jar.get(`${name}.${i}`); i++) out += jar.get(`${name}.${i}`)!.value;
  return out;
}
