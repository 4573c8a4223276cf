"use client";
import { useRef, useState } from "react";
import { Button } from "./button";

async function copyText(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API refused (e.g. in an iframe without the permission): the old way.
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

export function CopyButton({ text, label = "Copy", what, onFailed }: { text: string; label?: string; what?: string; onFailed?: () => void }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <Button
      size="sm"
      variant="secondary"
      aria-label={what ? `${label} ${what}` : label}
      onClick={async () => {
        const ok = await copyText(text);
        setState(ok ? "copied" : "failed");
        if (!ok) onFailed?.();
        setTimeout(() => setState("idle"), 2000);
      }}
    >
      <span aria-live="polite">{state === "copied" ? "Copied" : state === "failed" ? "Select and copy" : label}</span>
    </Button>
  );
}

/**
 * The value itself in a read-only field, with a Copy button: readable and selectable by hand
 * when the clipboard is refused ("Select and copy" then selects it for Ctrl+C).
 */
export function CopyField({ text, label, what }: { text: string; label: string; what: string }) {
  const field = useRef<HTMLInputElement>(null);
  return (
    <span className="flex w-full items-center gap-2">
      <input
        ref={field}
        readOnly
        aria-label={what.charAt(0).toUpperCase() + what.slice(1)}
        value={text}
        onFocus={(e) => e.currentTarget.select()}
        className="min-w-0 flex-1 rounded border border-slate-300 bg-white px-2 py-1 font-mono text-xs text-slate-800"
      />
      <CopyButton text={text} label={label} what={what} onFailed={() => field.current?.select()} />
    </span>
  );
}
