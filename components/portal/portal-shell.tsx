import Link from "next/link";
import type { ReactNode } from "react";
import { Badge } from "../ui/badge";

type Caps = { write: boolean; sendExample: boolean };
type Needs = keyof Caps | "member";

const NAV: { href: string; label: string; needs?: Needs }[] = [
  { href: "/portal/endpoints", label: "Endpoints" },
  { href: "/portal/event-types", label: "Event catalog" },
  { href: "/portal/send", label: "Send sample", needs: "sendExample" },
  { href: "/portal/logs", label: "Delivery logs" },
  { href: "/portal/failures", label: "Failures" },
  { href: "/portal/verify", label: "Verify signatures" },
  { href: "/portal/test-url", label: "Test URL", needs: "write" },
  { href: "/portal/guide", label: "Integration guide" },
  // A member's own email alerts: only portals opened by a member (/portal/sign-in) have a person.
  { href: "/portal/notifications", label: "Notifications", needs: "member" },
];

/** Header, navigation and main landmark of every portal page. */
export function PortalShell({
  appName,
  readOnly,
  capabilities,
  member = false,
  banner,
  pathname,
  onSignOut,
  brand,
  children,
}: {
  appName: string;
  /** The operator's product name and logo (environment branding); "Webhooks" without. */
  brand?: { displayName: string | null; logoUrl: string | null } | null;
  readOnly: boolean;
  capabilities: Caps;
  /** Opened by an application member (they have email alerts to set). */
  member?: boolean;
  /** Above every page's content: the endpoint alerts. */
  banner?: ReactNode;
  pathname: string;
  onSignOut: () => void;
  children: ReactNode;
}) {
  const items = NAV.filter((n) => !n.needs || (n.needs === "member" ? member : capabilities[n.needs]));
  return (
    <div className="min-h-screen">
      <a href="#portal-main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 pt-3">
          <div className="flex min-w-0 items-center gap-2">
            {brand?.logoUrl && (
              // The operator's own asset, any host: next/image would need each host configured.
              // Decorative: the product name is written next to it.
              // eslint-disable-next-line @next/next/no-img-element
              <img src={brand.logoUrl} alt="" className="h-7 w-auto max-w-32 shrink-0 object-contain" />
            )}
            <p className="truncate text-sm font-semibold text-slate-900">
              {brand?.displayName ?? "Webhooks"} <span className="font-normal text-slate-600">· {appName}</span>
            </p>
            {readOnly && (
              <Badge tone="amber" title="This link lets you look, not change anything">
                Read-only
              </Badge>
            )}
          </div>
          <button type="button" onClick={onSignOut} className="rounded px-2 py-1 text-xs text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600">
            Sign out
          </button>
        </div>
        {/* Wraps instead of scrolling sideways: on a phone every page stays one tap away. */}
        <nav aria-label="Portal" className="mx-auto max-w-6xl px-2">
          <ul className="flex flex-wrap gap-x-1">
            {items.map((n) => {
              const current = pathname === n.href || pathname.startsWith(n.href + "/");
              return (
                <li key={n.href}>
                  <Link
                    href={n.href}
                    aria-current={current ? "page" : undefined}
                    className={`block border-b-2 px-2.5 py-2 text-sm font-medium sm:px-3 sm:py-2.5 focus-visible:outline-2 focus-visible:outline-blue-600 ${
                      current ? "border-(--accent) text-slate-900" : "border-transparent text-slate-600 hover:text-slate-900"
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
      <main id="portal-main" className="mx-auto max-w-6xl px-4 py-6">
        {banner}
        {children}
      </main>
    </div>
  );
}
