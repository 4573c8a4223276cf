"use client";
import { useState } from "react";
import { PortalLinkForm } from "@/components/console/portal-link-form";
import { Button } from "@/components/ui/button";
import { ErrorText, Notice } from "@/components/ui/notice";
import { useConsole } from "../../_lib/providers";
import { useConsoleMutations } from "../../_lib/queries";

const OPEN_AS_CUSTOMER_S = 3600;

/** "Open the portal as this customer" and the link generator (with the iframe snippet). */
export function PortalAccessTab({ appId, appName }: { appId: string; appName: string }) {
  const { canWrite } = useConsole();
  const m = useConsoleMutations();
  const [link, setLink] = useState<string | null>(null);
  const [openError, setOpenError] = useState<string | null>(null);
  if (!canWrite)
    return (
      <Notice tone="info" title="Viewers cannot mint portal links">
        A portal link is a credential for {appName}&apos;s portal; owners and admins of this environment can create one.
      </Notice>
    );
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section className="space-y-3">
        <h2 className="text-base font-semibold">Open the portal as this customer</h2>
        <p className="text-sm text-slate-600">
          A one-hour link with everything the customer can do, opened in a new tab: see exactly what {appName} sees.
        </p>
        <Button
          onClick={() => {
            setOpenError(null);
            // Opened before the request so the browser treats it as the click's own window.
            const tab = window.open("about:blank", "_blank");
            m.portalLink.mutate(
              { appId, body: { readOnly: false, expiry: OPEN_AS_CUSTOMER_S, featureFlags: [] } },
              {
                onSuccess: (r) => {
                  if (tab) tab.location.href = r.url;
                  else window.location.assign(r.url);
                },
                onError: (e) => {
                  tab?.close();
                  setOpenError(e.message);
                },
              },
            );
          }}
        >
          Open the portal as this customer ↗
        </Button>
        <ErrorText message={openError} className="text-sm" />
      </section>
      <section className="space-y-3">
        <h2 className="text-base font-semibold">Portal link for embedding</h2>
        <PortalLinkForm
          generating={m.portalLink.isPending}
          error={m.portalLink.error?.message}
          link={link}
          onGenerate={(o) => m.portalLink.mutate({ appId, body: o }, { onSuccess: (r) => setLink(r.url) })}
        />
      </section>
    </div>
  );
}
