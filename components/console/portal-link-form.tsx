"use client";
import { useState } from "react";
import { PORTAL_RESTRICTIONS } from "@/lib/portal-access/capabilities";
import { Button } from "../ui/button";
import { CodeBlock } from "../ui/code-block";
import { CopyButton } from "../ui/copy-button";
import { Field, inputClass } from "../ui/field";
import { ErrorText } from "../ui/notice";

export type PortalLinkOptions = { readOnly: boolean; expiry: number; featureFlags: string[] };

const EXPIRIES = [
  { seconds: 3600, label: "1 hour" },
  { seconds: 86400, label: "1 day" },
  { seconds: 7 * 86400, label: "7 days" },
  { seconds: 30 * 86400, label: "30 days (longest)" },
];

const RESTRICTION_LABELS: Record<keyof typeof PORTAL_RESTRICTIONS, string> = {
  "portal.no-replay": "No replay",
  "portal.no-retry": "No retry",
  "portal.no-secrets": "Hide signing secrets",
  "portal.no-send-example": "No sample events",
};

/** The iframe snippet an operator pastes into their own dashboard. */
export function iframeSnippet(url: string): string {
  return `<iframe\n  src="${url}"\n  title="Webhooks"\n  style="width: 100%; height: 800px; border: 0"\n  allow="clipboard-write"\n></iframe>`;
}

/** Mints a magic link with the chosen options; shows it, its iframe snippet and a way to open it. */
export function PortalLinkForm({
  onGenerate,
  generating,
  error,
  link,
}: {
  onGenerate: (o: PortalLinkOptions) => void;
  generating: boolean;
  error: string | undefined;
  link: string | null;
}) {
  const [readOnly, setReadOnly] = useState(false);
  const [expiry, setExpiry] = useState(86400);
  const [flags, setFlags] = useState("");
  const [restrictions, setRestrictions] = useState<string[]>([]);
  return (
    <div className="space-y-4">
      <form
        className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
        aria-label="Portal link options"
        onSubmit={(e) => {
          e.preventDefault();
          const own = flags.split(/[\s,]+/).map((f) => f.trim()).filter(Boolean);
          onGenerate({ readOnly, expiry, featureFlags: [...new Set([...own, ...restrictions])] });
        }}
      >
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} />
          Read-only (the customer can look, not change anything)
        </label>
        <Field label="Expires after">
          {(f) => (
            <select id={f.id} className={inputClass} value={expiry} onChange={(e) => setExpiry(Number(e.target.value))}>
              {EXPIRIES.map((x) => (
                <option key={x.seconds} value={x.seconds}>
                  {x.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Feature flags" hint="Separated by commas or spaces. Unlocks the event types tagged with these flags in the catalog.">
          {(f) => <input id={f.id} aria-describedby={f.describedBy} className={inputClass} value={flags} onChange={(e) => setFlags(e.target.value)} placeholder="beta" />}
        </Field>
        <fieldset className="space-y-1">
          <legend className="text-sm font-medium text-slate-800">Capabilities</legend>
          {(Object.keys(RESTRICTION_LABELS) as (keyof typeof RESTRICTION_LABELS)[]).map((r) => (
            <label key={r} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={restrictions.includes(r)}
                onChange={(e) => setRestrictions((prev) => (e.target.checked ? [...prev, r] : prev.filter((x) => x !== r)))}
              />
              {RESTRICTION_LABELS[r]} <code className="text-xs text-slate-500">{r}</code>
            </label>
          ))}
        </fieldset>
        <ErrorText message={error} className="text-sm" />
        <Button type="submit" variant="primary" disabled={generating}>
          Generate portal link
        </Button>
      </form>
      {link && (
        <div className="space-y-3 rounded-lg border border-green-300 bg-green-50 p-4" role="status">
          <p className="text-sm font-medium text-green-900">Portal link ready. Anyone with it opens this customer&apos;s portal until it expires.</p>
          <div className="flex flex-wrap items-center gap-2">
            <code className="max-w-full break-all rounded bg-white px-2 py-1 text-xs" aria-label="Portal link">
              {link}
            </code>
            <CopyButton text={link} label="Copy link" what="portal link" />
            <a href={link} target="_blank" rel="noreferrer" className="text-sm font-medium text-blue-800 underline">
              Open it
            </a>
          </div>
          <CodeBlock title="Embed it" code={iframeSnippet(link)} copyLabel="Copy snippet" />
        </div>
      )}
    </div>
  );
}
