import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { PasswordForm } from "@/components/accounts/password-form";
import { SignOutButtons } from "@/components/accounts/sign-out-buttons";
import { getConsoleSession } from "@/lib/accounts/console-session";
import { mailConfigured } from "@/lib/accounts/mail";
import { safeCallbackPath } from "@/lib/accounts/sign-in-messages";
import { hasPassword as userHasPassword } from "@/lib/accounts/users";

// /account — the signed-in user's password and sessions. An operator invited by email lands here
// first (?welcome=1&next=/console): "set your password", or skip it and keep using email links.
// Without email there are no email links: skipping would lock them out, so it is not offered.
export const metadata: Metadata = { title: "Your account · Herald" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function AccountPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const welcome = params.welcome === "1";
  const next = typeof params.next === "string" ? safeCallbackPath(params.next, "/console") : null;
  const session = await getConsoleSession();
  if (!session) redirect(`/sign-in?callbackUrl=${encodeURIComponent(welcome && next ? `/account?welcome=1&next=${next}` : "/account")}`);
  const hasPassword = await userHasPassword(session.user.id);
  // The invitation's step is only for people without a password.
  if (welcome && hasPassword) redirect(next ?? "/console");
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-6 py-12">
      {/* eslint-disable-next-line @next/next/no-img-element -- a static SVG from public/ */}
      <img src="/logo.svg" alt="Herald" width={120} height={32} className="mb-8" />
      <h1 className="text-xl font-semibold text-slate-900">{welcome ? "Welcome: set your password" : hasPassword ? "Your account" : "Set a password"}</h1>
      <p className="mb-6 mt-1 text-sm text-slate-600">
        Signed in as <strong>{session.user.email}</strong>.{" "}
        {hasPassword ? "Change your password here." : mailConfigured() ? "With a password you can sign in without waiting for an email." : null}
      </p>
      <PasswordForm hasPassword={hasPassword} next={welcome ? (next ?? "/console") : null} />
      {welcome ? (
        mailConfigured() ? (
          <p className="mt-6 text-sm">
            <a className="text-blue-700 underline" href={next ?? "/console"}>
              Skip for now
            </a>{" "}
            <span className="text-slate-500">(you can sign in with an email link, and set a password later here)</span>
          </p>
        ) : (
          <p className="mt-6 text-sm text-slate-600">
            This server does not send email, so there are no email sign-in links: set your password now, it is how you will sign in next time.
          </p>
        )
      ) : (
        <div className="mt-8 border-t border-slate-200 pt-6">
          <SignOutButtons callbackUrl="/sign-in" />
          {session.environments.length > 0 && (
            <p className="mt-4 text-sm">
              <a className="text-blue-700 underline" href="/console">
                Back to the console
              </a>
            </p>
          )}
        </div>
      )}
    </main>
  );
}
