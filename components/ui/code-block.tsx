import { CopyButton } from "./copy-button";

/** Preformatted code with a title bar and a copy button. */
export function CodeBlock({ code, title, copyLabel, maxHeight = "28rem" }: { code: string; title?: string; copyLabel?: string; maxHeight?: string }) {
  return (
    <figure className="overflow-hidden rounded-md border border-slate-200 bg-slate-950">
      <figcaption className="flex items-center justify-between gap-2 border-b border-slate-800 bg-slate-900 px-3 py-1.5 text-xs text-slate-300">
        <span className="truncate font-mono">{title ?? ""}</span>
        <CopyButton text={code} what={copyLabel ?? title ?? "code"} />
      </figcaption>
      <pre className="overflow-auto p-3 text-xs leading-relaxed text-slate-100" style={{ maxHeight }} tabIndex={0}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}
