import { expect, type Page } from "@playwright/test";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { createEnvironment } from "@/lib/environments/ensure-environment";
import { ensureUser } from "@/lib/accounts/users";

// Accounts for the console and sign-in specs: users made directly through lib/ (there is no
// sign-up), and signing in through the real /sign-in page, as a person would.

export type Role = "owner" | "admin" | "viewer";

let counter = 0;
/** A unique email per call (specs share one database). */
export const uniqueEmail = (label = "operator") => `${label}.${Date.now().toString(36)}.${counter++}@e2e.herald.test`;

/** A user with a password and a membership of `environmentId` (a fresh environment if omitted). */
export async function createOperator(opts: { email?: string; password?: string; role?: Role; environmentId?: string; name?: string } = {}) {
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? `pw-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const role = opts.role ?? "owner";
  const environmentId = opts.environmentId ?? (await createEnvironment("e2e accounts")).id;
  const user = await ensureUser(email, { password, name: opts.name ?? null });
  await db.environmentMembership.upsert({
    where: { environmentId_userId: { environmentId, userId: user.id } },
    update: { role },
    create: { id: newId("environmentMembership"), environmentId, userId: user.id, role },
  });
  return { userId: user.id, email: user.email, password, role, environmentId };
}

/** Signs in through /sign-in (password form) and waits until the browser has left the page. */
export async function signIn(page: Page, email: string, password: string, callbackUrl = "/console") {
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  const form = page.getByRole("form", { name: "Sign in with a password" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
}
