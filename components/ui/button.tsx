"use client";
import { useSyncExternalStore, type ButtonHTMLAttributes } from "react";

type Variant = "primary" | "secondary" | "danger" | "ghost";
const VARIANTS: Record<Variant, string> = {
  // The accent: blue by default, the operator's brand colour in a branded portal (--accent).
  primary: "bg-(--accent) text-(--accent-text) hover:brightness-90 disabled:opacity-50",
  secondary: "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 disabled:text-slate-400",
  danger: "bg-red-700 text-white hover:bg-red-800 disabled:bg-red-300",
  ghost: "text-blue-800 hover:bg-blue-50 disabled:text-slate-400",
};

const subscribeNothing = () => () => {};

/**
 * False in the server's HTML and while the page hydrates, true once React handles its events. A
 * submit button is disabled until then: our forms submit through onSubmit, and one submitted
 * before the scripts load goes out natively as a GET with its fields in the URL (a password
 * included) and reloads the page. A disabled default button also stops submission by Enter.
 */
function useHydrated(): boolean {
  return useSyncExternalStore(subscribeNothing, () => true, () => false);
}

export function Button({
  variant = "secondary",
  size = "md",
  className = "",
  type = "button",
  disabled,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; size?: "sm" | "md" }) {
  const hydrated = useHydrated();
  const sizing = size === "sm" ? "px-2.5 py-1 text-xs" : "px-3.5 py-2 text-sm";
  return (
    <button
      type={type}
      disabled={disabled || (type === "submit" && !hydrated)}
      className={`inline-flex items-center justify-center gap-1.5 rounded-md font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed ${sizing} ${VARIANTS[variant]} ${className}`}
      {...props}
    />
  );
}
