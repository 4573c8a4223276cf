"use client";
import Link from "next/link";
import { useState } from "react";
import type { PortalEventType } from "@/lib/portal/portal-catalog";
import { Badge } from "../ui/badge";
import { CodeBlock } from "../ui/code-block";
import { Markdown } from "../ui/markdown";
import { Tabs } from "../ui/tabs";

/** One event type of the catalog: description, markers, and per schema version the schema and an example. */
export function EventTypeCard({ eventType, sendHref }: { eventType: PortalEventType; sendHref: string | null }) {
  const [open, setOpen] = useState(false);
  const [version, setVersion] = useState(eventType.versions[0]?.version ?? "");
  const [view, setView] = useState<"example" | "schema">("example");
  const current = eventType.versions.find((v) => v.version === version);
  const panelId = `et-${eventType.name.replace(/[^a-zA-Z0-9_-]/g, "-")}`;
  return (
    <li className="rounded-lg border border-slate-200 bg-white">
      <h2 className="text-base">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
          className="flex w-full flex-wrap items-center gap-2 px-4 py-3 text-left focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          <span aria-hidden className="text-slate-400">
            {open ? "▾" : "▸"}
          </span>
          <span className="min-w-0 break-all font-mono text-sm font-semibold text-slate-900">{eventType.name}</span>
          {eventType.deprecated && (
            <Badge tone="amber" title="Still sent, but will be replaced; plan to move off it">
              Deprecated
            </Badge>
          )}
          {eventType.archived && (
            <Badge title="No longer published; kept for history">Archived</Badge>
          )}
          {eventType.featureFlag && <Badge tone="purple">beta: {eventType.featureFlag}</Badge>}
        </button>
      </h2>
      {/* Outside the button: the description may hold links (Markdown, rendered safely). */}
      {eventType.description && <Markdown text={eventType.description} className="-mt-1 break-words px-4 pb-3 pl-9 text-sm text-slate-600" />}
      {open && (
        <div id={panelId} className="space-y-3 border-t border-slate-200 px-4 py-4">
          {eventType.versions.length === 0 ? (
            <p className="text-sm text-slate-500">No schema published for this event type yet.</p>
          ) : (
            <>
              {eventType.versions.length > 1 && (
                <label className="flex items-center gap-2 text-sm">
                  Schema version
                  <select className="rounded border border-slate-300 px-2 py-1" value={version} onChange={(e) => setVersion(e.target.value)}>
                    {eventType.versions.map((v) => (
                      <option key={v.version} value={v.version}>
                        v{v.version}
                      </option>
                    ))}
                  </select>
                </label>
              )}
              <Tabs
                label={`${eventType.name} details`}
                tabs={[
                  { key: "example", label: "Example payload" },
                  { key: "schema", label: "JSON schema" },
                ]}
                selected={view}
                onSelect={setView}
              >
                {current && view === "example" && (
                  <>
                    <p className="mb-2 text-xs text-slate-500">
                      {current.exampleSource === "schema" ? "The example given with the schema." : "Generated from the schema (no example was given)."} This is the
                      value of <code>data</code> in the webhook body.
                    </p>
                    <CodeBlock title={`${eventType.name} · example`} copyLabel={`${eventType.name} example payload`} code={JSON.stringify(current.example, null, 2)} />
                  </>
                )}
                {current && view === "schema" && (
                  <CodeBlock title={`${eventType.name} · v${current.version} schema`} copyLabel={`${eventType.name} JSON schema`} code={JSON.stringify(current.schema, null, 2)} />
                )}
              </Tabs>
            </>
          )}
          {sendHref && !eventType.archived && (
            <Link href={sendHref} className="inline-block text-sm text-blue-800 hover:underline">
              Send this as a sample event →
            </Link>
          )}
        </div>
      )}
    </li>
  );
}
