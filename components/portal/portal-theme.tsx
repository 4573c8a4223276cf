"use client";
import { createContext, type CSSProperties, type ReactNode } from "react";

export type Branding = {
  displayName: string | null;
  logoUrl: string | null;
  accentColor: string | null;
  accentTextColor: string | null;
  theme: "light" | "dark" | "system";
};

/**
 * The product name portal page titles end with: the operator's display name, or "Webhooks
 * portal". null outside the portal: the console's pages take their titles from Next's metadata.
 */
export const BrandNameContext = createContext<string | null>(null);

/**
 * The portal's root: its theme (app/portal/theme.css swaps the palette for dark) and the
 * operator's accent colour with the text colour the server chose for contrast on it.
 */
export function PortalTheme({ branding, children }: { branding: Branding | null; children: ReactNode }) {
  const style =
    branding?.accentColor && branding.accentTextColor
      ? ({ "--accent": branding.accentColor, "--accent-text": branding.accentTextColor } as CSSProperties)
      : undefined;
  return (
    <div className="portal-root min-h-screen bg-slate-50 text-slate-900" data-theme={branding?.theme ?? "system"} style={style}>
      <BrandNameContext.Provider value={branding?.displayName ?? "Webhooks portal"}>{children}</BrandNameContext.Provider>
    </div>
  );
}
