"use client";
import { useEffect, useId, useRef, useState } from "react";

/**
 * A filter that takes several values: a button naming the choice ("Any status", "2 selected")
 * that opens a group of checkboxes. Native checkboxes in a fieldset, so screen readers and the
 * keyboard get the usual semantics; Escape or a click outside closes it.
 */
export function MultiSelect({
  label,
  anyLabel,
  options,
  selected,
  onChange,
}: {
  label: string;
  anyLabel: string;
  options: { value: string; label: string }[];
  selected: string[];
  onChange: (next: string[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => root.current && !root.current.contains(e.target as Node) && setOpen(false);
    document.addEventListener("mousedown", away);
    return () => document.removeEventListener("mousedown", away);
  }, [open]);

  const labelOf = (v: string) => options.find((o) => o.value === v)?.label ?? v;
  const summary = selected.length === 0 ? anyLabel : selected.length <= 2 ? selected.map(labelOf).join(", ") : `${selected.length} selected`;
  // Values in the URL that the list does not offer (an event type since archived) stay visible.
  const all = [...options, ...selected.filter((v) => !options.some((o) => o.value === v)).map((v) => ({ value: v, label: v }))];
  const toggle = (v: string) => onChange(selected.includes(v) ? selected.filter((x) => x !== v) : [...selected, v]);

  return (
    <div
      ref={root}
      className="relative space-y-1 text-sm"
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          e.stopPropagation();
          setOpen(false);
        }
      }}
    >
      <span id={`${id}-label`} className="block font-medium text-slate-700">
        {label}
      </span>
      <button
        type="button"
        aria-labelledby={`${id}-label ${id}-value`}
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-center justify-between gap-2 rounded-md border border-slate-300 bg-white px-2 py-2 text-left text-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30"
      >
        <span id={`${id}-value`} className="truncate">
          {summary}
        </span>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <fieldset
          id={`${id}-panel`}
          className="absolute z-20 mt-1 max-h-72 w-full min-w-48 overflow-auto rounded-md border border-slate-300 bg-white p-2 shadow-lg"
        >
          <legend className="sr-only">{label}</legend>
          {all.map((o) => (
            <label key={o.value} className="flex cursor-pointer items-center gap-2 rounded px-1 py-1 hover:bg-slate-50">
              <input type="checkbox" checked={selected.includes(o.value)} onChange={() => toggle(o.value)} />
              <span className="break-all">{o.label}</span>
            </label>
          ))}
          {selected.length > 0 && (
            <button type="button" className="mt-1 w-full rounded px-1 py-1 text-left text-blue-700 underline" onClick={() => onChange([])}>
              {anyLabel}
            </button>
          )}
        </fieldset>
      )}
    </div>
  );
}
