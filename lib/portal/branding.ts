import { z } from "zod";

// Per-environment branding of the consumer portal (Herald extension, set through
// PATCH /api/v1/environment/settings): the operator's product name and logo, an accent colour
// and the theme. Everything is optional; the portal falls back to "Webhooks", no logo, its own
// blue and the visitor's system theme.

const HEX = /^#[0-9a-f]{6}$/i;
// A data: URL lets an operator without a public asset host ship a small logo inline.
const DATA_IMAGE = /^data:image\/(png|jpeg|webp|gif|svg\+xml);base64,[A-Za-z0-9+/]+=*$/;
const MAX_DATA_URL = 64 * 1024;

const zLogoUrl = z
  .string()
  .trim()
  .max(MAX_DATA_URL, `must be at most ${MAX_DATA_URL} characters (a data: URL of about 48 KB)`)
  .refine((v) => {
    if (DATA_IMAGE.test(v)) return true;
    try {
      const u = new URL(v);
      return (u.protocol === "https:" || u.protocol === "http:") && u.hostname !== "";
    } catch {
      return false;
    }
  }, "must be an http(s) URL of an image, or a data:image/…;base64 URL");

export const PortalBranding = z
  .object({
    /** Shown in the portal's header and page titles instead of "Webhooks". */
    displayName: z.string().trim().min(1, "must not be empty (null removes it)").max(60).nullable().optional(),
    logoUrl: zLogoUrl.nullable().optional(),
    /** #rrggbb; buttons and the current tab use it, with black or white text, whichever reads better. */
    accentColor: z.string().regex(HEX, "must be a colour as #rrggbb, e.g. #0f766e").nullable().optional(),
    /** system follows the visitor's prefers-color-scheme. */
    theme: z.enum(["light", "dark", "system"]).optional(),
  })
  .strict();
export type PortalBranding = z.infer<typeof PortalBranding>;

export type PortalBrandingOut = {
  displayName: string | null;
  logoUrl: string | null;
  accentColor: string | null;
  /** The text colour on the accent: #ffffff or #000000, whichever contrasts more (WCAG). */
  accentTextColor: string | null;
  theme: "light" | "dark" | "system";
};

/** WCAG 2 relative luminance of #rrggbb. */
export function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const LIGHT_TEXT = "#ffffff";
// Pure black: with #111827 (slate-900) a mid grey such as #787878 reached only 4.4:1 either way.
const DARK_TEXT = "#000000";

/** Black or white text on `accent`, whichever has the higher contrast (always at least 4.5:1). */
export function textOnAccent(accent: string): string {
  return contrastRatio(accent, LIGHT_TEXT) >= contrastRatio(accent, DARK_TEXT) ? LIGHT_TEXT : DARK_TEXT;
}

/** The stored JSON (or null) as the API and the portal show it. */
export function brandingOut(stored: unknown): PortalBrandingOut {
  const parsed = PortalBranding.safeParse(stored ?? {});
  const b = parsed.success ? parsed.data : {};
  const accent = b.accentColor ? b.accentColor.toLowerCase() : null;
  return {
    displayName: b.displayName ?? null,
    logoUrl: b.logoUrl ?? null,
    accentColor: accent,
    accentTextColor: accent ? textOnAccent(accent) : null,
    theme: b.theme ?? "system",
  };
}

/** A PATCH merges into what is stored: fields left out stay, null removes one. */
export function mergeBranding(stored: unknown, patch: PortalBranding): PortalBranding {
  const current = PortalBranding.safeParse(stored ?? {});
  const merged: Record<string, unknown> = { ...(current.success ? current.data : {}), ...patch };
  for (const k of Object.keys(merged)) if (merged[k] === null) delete merged[k];
  return merged;
}
