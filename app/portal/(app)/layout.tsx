"use client";
import { usePathname, useSearchParams } from "next/navigation";
import { Suspense, useEffect, type ReactNode } from "react";
import { EndpointAlertBanner } from "@/components/portal/endpoint-alert-banner";
import { PortalShell } from "@/components/portal/portal-shell";
import { SessionEnded } from "@/components/portal/session-ended";
import { Spinner } from "@/components/ui/notice";
import { signOut } from "../_lib/api";
import { useBranding, useEndpointAlerts, useSessionState } from "../_lib/queries";
import { ENDED_MESSAGES, resumeSession } from "../_lib/session-store";

// Every portal page below /portal/…: needs a session (from the link, or stored in this tab).
export default function PortalAppLayout({ children }: { children: ReactNode }) {
  const state = useSessionState();
  const pathname = usePathname();
  const branding = useBranding();

  useEffect(() => {
    if (state.status === "loading") resumeSession();
  }, [state.status]);

  if (state.status === "loading") {
    return (
      <main className="p-10">
        <Spinner label="Loading" />
      </main>
    );
  }
  if (state.status === "ended") {
    const msg = ENDED_MESSAGES[state.reason];
    return <SessionEnded title={msg.title} body={msg.body} />;
  }
  return (
    <>
      <Suspense fallback={null}>
        <KeepEmbedEnv embedEnv={state.session.embedEnv} />
      </Suspense>
      <PortalShell
        appName={state.session.application.name}
        readOnly={state.session.readOnly}
        capabilities={state.session.capabilities}
        member={Boolean(state.session.member)}
        banner={<AlertBanner />}
        pathname={pathname}
        brand={branding}
        onSignOut={() => void signOut()}
      >
        {children}
      </PortalShell>
    </>
  );
}

/**
 * Framed on the operator's site: keeps the link's ?env= in the address, so that a reload inside
 * the frame is answered with that environment's embedding origins too (lib/environments/
 * portal-embedding.ts). Runs after every navigation, including pages that rewrite their own
 * query (the log filters). Not needed, and not shown, when the portal is the whole tab.
 */
function KeepEmbedEnv({ embedEnv }: { embedEnv: string | undefined }) {
  const pathname = usePathname();
  const search = useSearchParams();
  useEffect(() => {
    if (!embedEnv || window.self === window.top) return;
    const url = new URL(window.location.href);
    if (url.searchParams.get("env") === embedEnv) return;
    url.searchParams.set("env", embedEnv);
    window.history.replaceState(window.history.state, "", url);
  }, [embedEnv, pathname, search]);
  return null;
}

/** Endpoints failing or disabled by Herald, kept live; nothing while all is well (or unknown). */
function AlertBanner() {
  const alerts = useEndpointAlerts();
  return <EndpointAlertBanner alerts={alerts.data?.data ?? []} />;
}
