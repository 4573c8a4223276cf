import Link from "next/link";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/accounts/sign-in-form";
import { oidcConfigured } from "@/lib/accounts/auth-options";
import { getConsoleSession } from "@/lib/accounts/console-session";
import { mailConfigured } from "@/lib/accounts/mail";
import { safeCallbackPath, signInMessage } from "@/lib/accounts/sign-in-messages";

// /sign-in — the operators' door to the console (next-auth's sign-in page, pages.signIn).
export const metadata: Metadata = { title: "Sign in · Herald" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function SignInPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(params.callbackUrl, "/console");
  const session = await getConsoleSession();
  if (session && !params.error) redirect(callbackUrl);
  const error = typeof params.error === "string" ? signInMessage(params.error, { mail: mailConfigured() }) : null;
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-6 py-12">
      {/* eslint-disable-next-line @next/next/no-img-element -- a static SVG from public/ */}
      <img src="/logo.svg" alt="Herald" width={120} height={32} className="mb-8" />
      <h1 className="text-xl font-semibold text-slate-900">Sign in to the console</h1>
      <p className="mb-6 mt-1 text-sm text-slate-600">For the team that runs this Herald server.</p>
      <SignInForm methods={{ password: true, email: mailConfigured(), oidc: oidcConfigured() }} callbackUrl={callbackUrl} initialError={error} />
      <p className="mt-8 text-sm text-slate-500">
        Integrating webhooks from a provider? <Link className="text-blue-700 underline" href="/portal/sign-in">Sign in to your portal</Link>.
      </p>
    </main>
  );
}
