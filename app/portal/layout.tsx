import type { Metadata } from "next";
import type { ReactNode } from "react";
import { BrandedRoot } from "./_lib/branded-root";
import { PortalProviders } from "./_lib/providers";
import "./theme.css";

// The consumer portal. Served with `Content-Security-Policy: frame-ancestors …` from
// HERALD_PORTAL_FRAME_ANCESTORS and, for ?env=<id>, that environment's portalEmbedOrigins
// (proxy.ts), so operators can embed it in their own site.
export const metadata: Metadata = {
  title: "Webhooks portal",
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

export default function PortalLayout({ children }: { children: ReactNode }) {
  return (
    <PortalProviders>
      <BrandedRoot>{children}</BrandedRoot>
    </PortalProviders>
  );
}
