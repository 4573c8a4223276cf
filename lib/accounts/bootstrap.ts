import { db } from "../db";
import type { Env } from "../env";
import { newId } from "../ids";
import { ensureApiKey } from "../environments/api-keys";
import { ensureDefaultEnvironment } from "../environments/ensure-environment";
import { generatePassword } from "./password";
import { ensureUser } from "./users";

// What a scripted setup asks for with HERALD_BOOTSTRAP_*: an API key and an owner (email and
// password) of the default environment, ensured idempotently. The web process applies them at
// boot and /api/v1/health answers 204 only after (lib/health/readiness.ts), so "wait for health,
// then call the API" works. scripts/bootstrap.ts (npm run up) applies them too, and on a first
// run without an owner creates one with a one-time password, printed once.

export const FIRST_OWNER_EMAIL = "admin@herald.localhost";

export async function applyBootstrapSettings(config: Pick<Env, "HERALD_BOOTSTRAP_API_KEY" | "HERALD_BOOTSTRAP_ADMIN_EMAIL" | "HERALD_BOOTSTRAP_ADMIN_PASSWORD">) {
  const { environment } = await ensureDefaultEnvironment();
  if (config.HERALD_BOOTSTRAP_API_KEY) await ensureApiKey(environment.id, config.HERALD_BOOTSTRAP_API_KEY, "bootstrap");
  if (config.HERALD_BOOTSTRAP_ADMIN_EMAIL && config.HERALD_BOOTSTRAP_ADMIN_PASSWORD) {
    const user = await ensureUser(config.HERALD_BOOTSTRAP_ADMIN_EMAIL, { password: config.HERALD_BOOTSTRAP_ADMIN_PASSWORD });
    await ensureOwner(environment.id, user.id);
  }
  return environment;
}

async function ensureOwner(environmentId: string, userId: string) {
  await db.environmentMembership.upsert({
    where: { environmentId_userId: { environmentId, userId } },
    update: { role: "owner" },
    create: { id: newId("environmentMembership"), environmentId, userId, role: "owner" },
  });
}

/** First run: an owner with a generated password when the environment has no owner yet. */
export async function ensureFirstOwner(environmentId: string): Promise<{ email: string; password: string } | null> {
  const owners = await db.environmentMembership.count({ where: { environmentId, role: "owner" } });
  if (owners > 0) return null;
  const password = generatePassword();
  const user = await ensureUser(FIRST_OWNER_EMAIL, { password });
  await ensureOwner(environmentId, user.id);
  return { email: user.email, password };
}
