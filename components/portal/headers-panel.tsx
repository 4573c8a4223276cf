"use client";
import { useState } from "react";
import { Button } from "../ui/button";
import { inputClass } from "../ui/field";
import { ErrorText } from "../ui/notice";

/** Custom headers sent with every delivery; values of credential-like headers are never shown. */
export function HeadersPanel({
  headers,
  sensitive,
  canEdit,
  onSet,
  onRemove,
  saving,
  error,
}: {
  headers: Record<string, string>;
  sensitive: string[];
  canEdit: boolean;
  onSet: (name: string, value: string) => void;
  onRemove: (name: string) => void;
  saving: boolean;
  error?: string | undefined;
}) {
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const rows = [
    ...Object.entries(headers).map(([k, v]) => ({ k, v, hidden: false })),
    ...sensitive.map((k) => ({ k, v: "", hidden: true })),
  ];
  return (
    <section aria-labelledby="headers-heading" className="rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="headers-heading" className="text-base font-semibold">
        Custom headers
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Added to every delivery. Headers that look like credentials are stored encrypted and never shown again.
      </p>
      {rows.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">None.</p>
      ) : (
        <table className="mt-3 w-full text-left text-sm">
          <thead className="sr-only">
            <tr>
              <th>Name</th>
              <th>Value</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((r) => (
              <tr key={r.k}>
                <td className="py-1.5 pr-3 font-mono text-xs">{r.k}</td>
                <td className="py-1.5 pr-3 font-mono text-xs text-slate-600">
                  {r.hidden ? "•••••• (set, hidden)" : r.v}
                </td>
                <td className="py-1.5 text-right">
                  {canEdit && (
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Remove header ${r.k}`}
                      disabled={saving}
                      onClick={() => onRemove(r.k)}
                    >
                      Remove
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canEdit && (
        <form
          className="mt-3 flex flex-wrap gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) {
              onSet(name.trim(), value);
              setName("");
              setValue("");
            }
          }}
        >
          <input
            aria-label="Header name"
            placeholder="X-Header-Name"
            className={`${inputClass} max-w-xs font-mono`}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          {/* A least width: in a narrow column the value wraps onto its own line instead of shrinking to a sliver. */}
          <input
            aria-label="Header value"
            placeholder="value"
            className={`${inputClass} min-w-56 flex-1 font-mono`}
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
          <Button type="submit" size="sm" disabled={saving || !name.trim()}>
            Set header
          </Button>
        </form>
      )}
      <ErrorText message={error} className="mt-2 text-sm" />
    </section>
  );
}
