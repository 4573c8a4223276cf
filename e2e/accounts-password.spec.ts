import { expect, test } from "@playwright/test";
import { serverUrl, shot } from "./fixtures";
import { createOperator, signIn, uniqueEmail } from "./helpers/accounts";

// An operator invited from the console's Members page (this server has no SMTP: the owner hands
// over the one-time link) follows it, is asked to set a password, and from then on signs in with
// it; later they change it on /account, where a wrong current password is refused.

test("an invited operator sets a password after the invitation, signs in with it, and changes it", async ({ page, browser }) => {
  const owner = await createOperator({ role: "owner" });
  await signIn(page, owner.email, owner.password);
  await page.goto("/console/members");
  const invitee = uniqueEmail("invitee");
  const form = page.getByRole("form", { name: "Invite an operator" });
  await form.getByLabel("Email").fill(invitee);
  await form.getByLabel("Role").selectOption("admin");
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/v1/environment/member") && r.request().method() === "POST");
  await form.getByRole("button", { name: "Invite" }).click();
  const link = ((await (await answer).json()) as { invite: { url: string } }).invite.url;
  expect(link).toContain("/api/auth/callback/email?");

  // The invitee, in their own browser.
  const theirs = await browser.newContext({ baseURL: serverUrl() });
  const them = await theirs.newPage();
  await them.goto(link);
  await expect(them).toHaveURL(/\/account\?welcome=1/);
  await expect(them.getByRole("heading", { name: "Welcome: set your password" })).toBeVisible();
  // No SMTP, so no email links to come back with: skipping the password is not offered.
  await expect(them.getByText("This server does not send email, so there are no email sign-in links: set your password now")).toBeVisible();
  await expect(them.getByRole("link", { name: "Skip for now" })).toHaveCount(0);
  // Going to the console instead does not get past it: without a password they could never sign
  // in again once this session ends. The console sends them back, then on to where they went.
  await them.goto("/console/applications");
  await expect(them).toHaveURL(/\/account\?welcome=1&next=%2Fconsole%2Fapplications$/);
  await expect(them.getByRole("heading", { name: "Welcome: set your password" })).toBeVisible();
  const password = `chosen-${Date.now()}-password`;
  const setForm = them.getByRole("form", { name: "Set your password" });
  await setForm.getByLabel("New password", { exact: true }).fill(password);
  await setForm.getByLabel("New password, again").fill("something-else-entirely");
  await setForm.getByRole("button", { name: "Set password" }).click();
  await expect(them.getByText("The two new passwords are not the same.")).toBeVisible();
  await setForm.getByLabel("New password, again").fill(password);
  await shot(them, "account-set-password", { doc: true });
  await setForm.getByRole("button", { name: "Set password" }).click();
  await expect(them).toHaveURL(/\/console\/applications$/);

  // Signed out, they come back with the password. The console page is left first: with its cookie
  // gone, its next query answers 401 and it sends itself to /sign-in, which would abort our own
  // navigation there (what failed CI once: page.goto net::ERR_ABORTED).
  await them.goto("about:blank");
  await theirs.clearCookies();
  await signIn(them, invitee, password);
  await expect(them).toHaveURL(/\/console/);

  // Changing it: the console's account link, the current password first.
  await them.getByRole("link", { name: invitee }).click();
  await expect(them.getByRole("heading", { name: "Your account" })).toBeVisible();
  const change = them.getByRole("form", { name: "Change your password" });
  await change.getByLabel("Current password").fill("not-the-password");
  await change.getByLabel("New password", { exact: true }).fill(`${password}-2`);
  await change.getByLabel("New password, again").fill(`${password}-2`);
  await change.getByRole("button", { name: "Change password" }).click();
  await expect(them.getByText("The current password is wrong.")).toBeVisible();
  await shot(them, "account-wrong-current-password", { doc: true });
  await change.getByLabel("Current password").fill(password);
  await change.getByRole("button", { name: "Change password" }).click();
  await expect(them.getByText("Password changed.")).toBeVisible();

  // (The old password's refusal is checked in test/accounts-password: every wrong password here
  // counts against 127.0.0.1, which all e2e specs share, in the sign-in rate limit.)
  await them.goto("about:blank");
  await theirs.clearCookies();
  await signIn(them, invitee, `${password}-2`);
  await theirs.close();
});
