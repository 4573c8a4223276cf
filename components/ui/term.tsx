"use client";
import { useId, useState, type ReactNode } from "react";

/**
 * A term with a one-line explanation (WAI-ARIA tooltip pattern): shown on hover and on keyboard
 * focus, dismissed with Escape, and always the term's accessible description, so screen
 * readers hear it without hovering. For words like "Dead-lettered", "Circuit open" or "v1a".
 */
export function Term({ explain, children }: { explain: string; children: ReactNode }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <span
      className="relative inline-flex"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
    >
      <span
        tabIndex={0}
        aria-describedby={id}
        className="inline-flex cursor-help rounded-full focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-600"
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === "Escape") setOpen(false);
        }}
      >
        {children}
      </span>
      <span
        role="tooltip"
        id={id}
        className={`${open ? "block" : "hidden"} absolute left-0 top-full z-30 mt-1 w-max max-w-[16rem] rounded-md bg-slate-900 px-2.5 py-1.5 text-xs font-normal normal-case leading-snug tracking-normal text-white shadow-lg`}
      >
        {explain}
      </span>
    </span>
  );
}
