"use client";
import type { ReactNode } from "react";
import { PortalTheme } from "@/components/portal/portal-theme";
import { useBranding } from "./queries";

/** Every portal page inside the operator's theme and accent, once the session has read them. */
export function BrandedRoot({ children }: { children: ReactNode }) {
  return <PortalTheme branding={useBranding()}>{children}</PortalTheme>;
}
