"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { SessionEnded } from "@/components/portal/session-ended";
import { Spinner } from "@/components/ui/notice";
import { ApiFailure, openLink } from "./_lib/api";
import { useSessionState } from "./_lib/queries";
import { ENDED_MESSAGES, endSession, reasonForCode, restoreSession, startSession } from "./_lib/session-store";

// /portal#key=hpt_… — the magic link. The key is in the fragment, which browsers never send to
// servers; we read it, drop it from the address bar and history at once, and exchange it for a
// session. Without a key, a session stored earlier in this tab is reused.

let opening = false;

function linkKey(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  return params.get("key");
}

export default function PortalEntry() {
  const router = useRouter();
  const state = useSessionState();

  useEffect(() => {
    if (opening) return;
    opening = true;
    const key = linkKey(window.location.hash);
    const target = new URLSearchParams(window.location.hash.replace(/^#/, "")).get("page") ?? "endpoints";
    const next = `/portal/${/^[a-z-]+$/.test(target) ? target : "endpoints"}`;
    if (window.location.hash) window.history.replaceState(null, "", window.location.pathname + window.location.search);
    if (!key) {
      const stored = restoreSession();
      if (stored) {
        startSession(stored);
        router.replace(next);
      } else endSession("no_session");
      opening = false;
      return;
    }
    openLink(key)
      .then(() => router.replace(next))
      .catch((e: unknown) => {
        if (e instanceof ApiFailure && e.status === 401) endSession(reasonForCode(e.code), e.message);
        else endSession("link_invalid", e instanceof Error ? e.message : String(e));
      })
      .finally(() => {
        opening = false;
      });
  }, [router]);

  if (state.status === "ended") return <SessionEnded {...ENDED_MESSAGES[state.reason]} />;
  return (
    <main className="mx-auto max-w-md p-10">
      <Spinner label="Opening your webhooks portal" />
    </main>
  );
}
