import Link from "next/link";
import type { Metadata } from "next";
import pkg from "@/package.json";
import { SignOutButtons } from "@/components/accounts/sign-out-buttons";
import { getConsoleSession } from "@/lib/accounts/console-session";
import { checkHealth } from "@/lib/health/check-health";

// / — the front page: the two doors (the operators' console, the integrators' portal), the docs,
// the OpenAPI document, and this server's version and health.
export const metadata: Metadata = { title: "Herald" };
export const dynamic = "force-dynamic";

const link = "text-blue-700 underline hover:text-blue-900";

export default async function Home() {
  const [session, health] = await Promise.all([getConsoleSession(), checkHealth()]);
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <h1>
        {/* eslint-disable-next-line @next/next/no-img-element -- a static SVG from public/, nothing to optimise */}
        <img src="/logo.svg" alt="Herald" width={148} height={40} />
      </h1>
      <p className="mt-3 max-w-2xl text-slate-600">
        Self-hosted webhook delivery: signed with Standard Webhooks, retried with backoff, dead-lettered when it cannot be
        delivered, never lost.
      </p>

      <div className="mt-8 grid gap-4 sm:grid-cols-2">
        <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="console-h">
          <h2 id="console-h" className="font-semibold text-slate-900">
            Operator console
          </h2>
          <p className="mt-1 text-sm text-slate-600">For the team that runs this server: applications, event catalog, API keys, members.</p>
          {session ? (
            <div className="mt-4 space-y-3 text-sm">
              <p>
                Signed in as <strong>{session.user.email}</strong> ·{" "}
                <a className="text-blue-700 underline" href="/account">
                  Your account
                </a>
              </p>
              <a className="inline-block rounded-md bg-blue-700 px-3.5 py-2 font-medium text-white hover:bg-blue-800" href="/console">
                Open the console
              </a>
              <SignOutButtons callbackUrl="/" />
            </div>
          ) : (
            <a className="mt-4 inline-block rounded-md bg-blue-700 px-3.5 py-2 text-sm font-medium text-white hover:bg-blue-800" href="/sign-in">
              Sign in to the console
            </a>
          )}
        </section>
        <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="portal-h">
          <h2 id="portal-h" className="font-semibold text-slate-900">
            Webhooks portal
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            For integrators receiving webhooks: endpoints, delivery logs, retries, signature checks.
          </p>
          <Link className="mt-4 inline-block rounded-md border border-slate-300 px-3.5 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50" href="/portal/sign-in">
            Sign in to your portal
          </Link>
        </section>
      </div>

      <section className="mt-8 text-sm text-slate-700" aria-labelledby="docs-h">
        <h2 id="docs-h" className="font-semibold text-slate-900">
          Documentation
        </h2>
        <ul className="mt-2 list-disc space-y-1 pl-6">
          <li>
            Operator API: <code>/api/v1</code>, Svix-compatible. OpenAPI document:{" "}
            <a className={link} href="/api/v1/openapi.json">
              /api/v1/openapi.json
            </a>
          </li>
          <li>
            Integration guide for your customers:{" "}
            <a className={link} href="/docs/webhooks">
              /docs/webhooks
            </a>
          </li>
          <li>
            The <code>herald listen</code> CLI:{" "}
            <a className={link} href="/cli/herald.mjs">
              /cli/herald.mjs
            </a>
          </li>
        </ul>
      </section>

      <footer className="mt-10 flex flex-wrap items-center gap-x-6 gap-y-2 border-t border-slate-200 pt-4 text-sm text-slate-500">
        <span>Herald {pkg.version}</span>
        <span>
          Health:{" "}
          <strong className={health.ok ? "text-green-700" : "text-red-700"}>{health.ok ? "healthy" : "degraded"}</strong> (database{" "}
          {health.database}, Redis {health.redis}) ·{" "}
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- an API route */}
          <a className={link} href="/api/v1/health/status">
            /api/v1/health/status
          </a>
        </span>
      </footer>
    </main>
  );
}
