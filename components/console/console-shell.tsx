import Link from "next/link";
import type { ReactNode } from "react";
import { Badge } from "../ui/badge";

const NAV = [
  { href: "/console", label: "Overview", exact: true },
  { href: "/console/applications", label: "Applications" },
  { href: "/console/event-types", label: "Event catalog" },
  { href: "/console/api-keys", label: "API keys" },
  { href: "/console/operational-webhooks", label: "Operational webhooks" },
  { href: "/console/settings", label: "Settings" },
  { href: "/console/members", label: "Members" },
];

type Env = { id: string; name: string; role: string };

/** Header (environment switcher, who is signed in, sign-out), navigation and main landmark of every console page. */
export function ConsoleShell({
  pathname,
  userEmail,
  environments,
  environment,
  onSwitchEnvironment,
  onSignOut,
  children,
}: {
  pathname: string;
  userEmail: string;
  environments: Env[];
  environment: Env;
  onSwitchEnvironment: (id: string) => void;
  onSignOut: () => void;
  children: ReactNode;
}) {
  return (
    <div className="min-h-screen">
      <a href="#console-main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 pt-3">
          <div className="flex min-w-0 items-center gap-3">
            <Link href="/console" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
              {/* eslint-disable-next-line @next/next/no-img-element */}
              <img src="/logo.svg" alt="" width={20} height={20} />
              Herald console
            </Link>
            {environments.length > 1 ? (
              <label className="flex items-center gap-1 text-xs text-slate-600">
                <span className="sr-only">Environment</span>
                <select
                  value={environment.id}
                  onChange={(e) => onSwitchEnvironment(e.target.value)}
                  className="rounded border border-slate-300 bg-white px-2 py-1 text-xs text-slate-800"
                  aria-label="Environment"
                >
                  {environments.map((e) => (
                    <option key={e.id} value={e.id}>
                      {e.name}
                    </option>
                  ))}
                </select>
              </label>
            ) : (
              <span className="text-xs text-slate-500">{environment.name}</span>
            )}
            {environment.role === "viewer" && (
              <Badge tone="amber" title="You can look at everything in this environment and change nothing">
                Viewer
              </Badge>
            )}
          </div>
          <div className="flex items-center gap-2 text-xs text-slate-600">
            <a href="/account" className="hidden rounded px-1 py-1 hover:bg-slate-100 hover:text-slate-900 sm:inline" title="Your account: password, sessions">
              {userEmail}
            </a>
            <button
              type="button"
              onClick={onSignOut}
              className="rounded px-2 py-1 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600"
            >
              Sign out
            </button>
          </div>
        </div>
        <nav aria-label="Console" className="mx-auto max-w-7xl overflow-x-auto px-2">
          <ul className="flex min-w-max gap-1">
            {NAV.map((n) => {
              const current = n.exact ? pathname === n.href : pathname === n.href || pathname.startsWith(n.href + "/");
              return (
                <li key={n.href}>
                  <Link
                    href={n.href}
                    aria-current={current ? "page" : undefined}
                    className={`block border-b-2 px-3 py-2.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-600 ${
                      current ? "border-blue-700 text-blue-800" : "border-transparent text-slate-600 hover:text-slate-900"
                    }`}
                  >
                    {n.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      </header>
      <main id="console-main" className="mx-auto max-w-7xl px-4 py-6">
        {children}
      </main>
    </div>
  );
}
