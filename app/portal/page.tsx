"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { SessionEnded } from "@/components/portal/session-ended";
import { Spinner } from "@/components/ui/notice";
import { ApiFailure, openLink } from "./_lib/api";
import { useSessionState } from "./_lib/queries";
import { ENDED_MESSAGES, endSession, reasonForCode, resumeSession } from "./_lib/session-store";

// /portal#key=hpt_… — the magic link. The key is in the fragment, which browsers never send to
// servers; we read it, drop it from the address bar and history at once, and exchange it for a
// session. Without a key, a session stored earlier in this tab is reused.

let opening = false;

function linkParams(hash: string) {
  return new URLSearchParams(hash.replace(/^#/, ""));
}

export default function PortalEntry() {
  const router = useRouter();
  const state = useSessionState();

  useEffect(() => {
    const open = () => {
      if (opening) return;
      const params = linkParams(window.location.hash);
      const key = params.get("key");
      const page = params.get("page") ?? "endpoints";
      const next = `/portal/${/^[a-z-]+$/.test(page) ? page : "endpoints"}`;
      if (window.location.hash)
        window.history.replaceState(null, "", window.location.pathname + window.location.search);
      if (!key) {
        if (resumeSession()) router.replace(next);
        return;
      }
      opening = true;
      openLink(key)
        .then(() => router.replace(next))
        .catch((e: unknown) => {
          if (e instanceof ApiFailure && e.status === 401) endSession(reasonForCode(e.code), e.message);
          else endSession("link_invalid", e instanceof Error ? e.message : String(e));
        })
        .finally(() => {
          opening = false;
        });
    };
    open();
    // Opening another link in the same tab on this page only changes the fragment: no reload.
    const onHash = () => {
      if (linkParams(window.location.hash).get("key")) open();
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, [router]);

  if (state.status === "ended") return <SessionEnded {...ENDED_MESSAGES[state.reason]} />;
  return (
    <main className="mx-auto max-w-md p-10">
      <Spinner label="Opening your webhooks portal" />
    </main>
  );
}
