import { describe, expect, it } from "vitest";
import { brandingOut, contrastRatio, mergeBranding, PortalBranding, textOnAccent } from "./branding";

describe("portal branding", () => {
  it("computes WCAG contrast ratios", () => {
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5);
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
  });

  it("puts whichever of white or dark text reads better on the accent, always at least 4.5:1", () => {
    expect(textOnAccent("#0f766e")).toBe("#ffffff");
    expect(textOnAccent("#fde047")).toBe("#000000");
    // Every grey from black to white: the chosen text never falls below AA for normal text.
    for (let v = 0; v <= 255; v += 5) {
      const hex = `#${v.toString(16).padStart(2, "0").repeat(3)}`;
      expect(contrastRatio(hex, textOnAccent(hex)), hex).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("refuses what it cannot use, saying which field and why", () => {
    const bad = PortalBranding.safeParse({ accentColor: "teal", logoUrl: "javascript:alert(1)", theme: "blue", displayName: " " });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path.join("."));
    expect(paths.sort()).toEqual(["accentColor", "displayName", "logoUrl", "theme"]);
    expect(PortalBranding.safeParse({ colour: "#000000" }).success).toBe(false);
    expect(PortalBranding.safeParse({ logoUrl: "data:image/svg+xml;base64,PHN2Zy8+" }).success).toBe(true);
    expect(PortalBranding.safeParse({ logoUrl: "data:text/html;base64,PHN2Zy8+" }).success).toBe(false);
  });

  it("merges a patch into what is stored; null removes a field", () => {
    const stored = mergeBranding(null, { displayName: "Acme", accentColor: "#0F766E", theme: "dark" });
    const next = mergeBranding(stored, { accentColor: null, logoUrl: "https://acme.example/logo.svg" });
    expect(brandingOut(next)).toEqual({
      displayName: "Acme",
      logoUrl: "https://acme.example/logo.svg",
      accentColor: null,
      accentTextColor: null,
      theme: "dark",
    });
    expect(brandingOut(stored).accentColor).toBe("#0f766e");
    expect(brandingOut(null)).toEqual({ displayName: null, logoUrl: null, accentColor: null, accentTextColor: null, theme: "system" });
  });
});
