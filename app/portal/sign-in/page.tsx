import type { Metadata } from "next";
import { SignInForm } from "@/components/accounts/sign-in-form";
import { oidcConfigured } from "@/lib/accounts/auth-options";
import { mailConfigured } from "@/lib/accounts/mail";
import { signInMessage } from "@/lib/accounts/sign-in-messages";

// /portal/sign-in — the integrators' door: an email link (sent only to invited people), then
// /portal/sign-in/continue opens the portal of their application (a picker when several).
export const metadata: Metadata = { title: "Sign in to your webhooks portal · Herald" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function PortalSignInPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const error = typeof params.error === "string" ? signInMessage(params.error, { mail: mailConfigured() }) : null;
  const app = typeof params.app === "string" && /^app_[0-9a-z]+$/.test(params.app) ? params.app : null;
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-6 py-12">
      {/* eslint-disable-next-line @next/next/no-img-element -- a static SVG from public/ */}
      <img src="/logo.svg" alt="Herald" width={120} height={32} className="mb-8" />
      <h1 className="text-xl font-semibold text-slate-900">Sign in to your webhooks portal</h1>
      <p className="mb-6 mt-1 text-sm text-slate-600">
        For integrators invited by the provider of the service: enter your email and we send you a sign-in link.
      </p>
      <SignInForm
        methods={{ password: false, email: mailConfigured(), oidc: oidcConfigured() }}
        callbackUrl={`/portal/sign-in/continue${app ? `?app=${app}` : ""}`}
        initialError={error}
      />
      <p className="mt-8 text-sm text-slate-500">
        Running this Herald server? <a className="text-blue-700 underline" href="/sign-in">Sign in to the console</a>.
      </p>
    </main>
  );
}
