"use client";
import { useState } from "react";
import { EventTypeEditor } from "@/components/console/event-type-editor";
import { PageHeader } from "@/components/portal/page-header";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { MarkdownInline } from "@/components/ui/markdown";
import { EmptyState, Notice, Spinner } from "@/components/ui/notice";
import type { EventTypeOut } from "@/lib/event-types/serialize";
import { fieldError } from "../_lib/api";
import { useConsole } from "../_lib/providers";
import { useConsoleMutations, useEventTypes } from "../_lib/queries";

type Editing = { kind: "new" } | { kind: "edit"; eventType: EventTypeOut } | null;

export function EventTypesView() {
  const { canWrite } = useConsole();
  const list = useEventTypes();
  const m = useConsoleMutations();
  const [editing, setEditing] = useState<Editing>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const types = list.data?.data ?? [];

  const start = (e: Editing) => {
    m.saveEventType.reset();
    setSaved(null);
    setEditing(e);
  };

  return (
    <>
      <PageHeader
        title="Event catalog"
        description="The event types your applications publish. Customers see the catalog (descriptions, schemas, examples) in their portal; archived types are hidden, deprecated ones are marked."
        actions={canWrite && <Button variant="primary" onClick={() => start({ kind: "new" })}>New event type</Button>}
      />
      {saved && <div className="mb-4"><Notice tone="success">Saved {saved}.</Notice></div>}
      {list.isPending && <Spinner label="Loading the catalog" />}
      {list.error && <Notice tone="error">{list.error.message}</Notice>}
      <div className="grid gap-6 lg:grid-cols-[minmax(16rem,22rem)_1fr]">
        <div>
          {list.data && types.length === 0 && <EmptyState title="No event types yet" />}
          {types.length > 0 && (
            <ul className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white" aria-label="Event types">
              {types.map((t) => {
                const selected = editing?.kind === "edit" && editing.eventType.name === t.name;
                return (
                  <li key={t.name}>
                    <button
                      type="button"
                      aria-current={selected ? "true" : undefined}
                      onClick={() => start({ kind: "edit", eventType: t })}
                      className={`block w-full px-3 py-2 text-left hover:bg-slate-50 ${selected ? "bg-blue-50" : ""}`}
                    >
                      <span className="flex flex-wrap items-center gap-1">
                        <span className="font-mono text-sm font-medium text-slate-900">{t.name}</span>
                        {t.deprecated && <Badge tone="amber">Deprecated</Badge>}
                        {t.archived && <Badge tone="slate">Archived</Badge>}
                        {t.featureFlag && <Badge tone="purple">flag: {t.featureFlag}</Badge>}
                      </span>
                      {/* The same Markdown the portal renders, without links: the line is itself a button. */}
                      <span className="line-clamp-1 text-xs text-slate-600">
                        {t.description ? <MarkdownInline text={t.description} links={false} /> : "No description"}
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
        <section aria-label="Editor" className="rounded-lg border border-slate-200 bg-white p-4">
          {editing === null ? (
            <p className="text-sm text-slate-600">Choose an event type to {canWrite ? "edit" : "see"} it{canWrite ? ", or create a new one" : ""}.</p>
          ) : (
            <>
              <h2 className="mb-3 text-lg font-semibold">{editing.kind === "new" ? "New event type" : editing.eventType.name}</h2>
              <EventTypeEditor
                key={editing.kind === "new" ? "new" : editing.eventType.name}
                initial={editing.kind === "edit" ? editing.eventType : null}
                readOnly={!canWrite}
                saving={m.saveEventType.isPending}
                error={m.saveEventType.error?.message}
                fieldErrors={{
                  name: fieldError(m.saveEventType.error, "name"),
                  description: fieldError(m.saveEventType.error, "description"),
                  featureFlag: fieldError(m.saveEventType.error, "featureFlag"),
                }}
                onCancel={() => setEditing(null)}
                onSave={(d) =>
                  m.saveEventType.mutate(
                    {
                      name: editing.kind === "new" ? d.name : editing.eventType.name,
                      create: editing.kind === "new",
                      body: { description: d.description, schemas: d.schemas, featureFlag: d.featureFlag, deprecated: d.deprecated, archived: d.archived },
                    },
                    {
                      onSuccess: (et) => {
                        setSaved(et.name);
                        setEditing({ kind: "edit", eventType: et });
                      },
                    },
                  )
                }
              />
            </>
          )}
        </section>
      </div>
    </>
  );
}
