"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { ApplicationTable } from "@/components/console/application-table";
import { PageHeader } from "@/components/portal/page-header";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, inputClass } from "@/components/ui/field";
import { EmptyState, ErrorText, Notice, Spinner } from "@/components/ui/notice";
import { fieldError } from "../_lib/api";
import { useConsole } from "../_lib/providers";
import { useAppSummaries, useConsoleMutations } from "../_lib/queries";

export function ApplicationsView() {
  const { canWrite } = useConsole();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const search = params.get("q") ?? "";
  const cursor = params.get("cursor") ?? undefined;
  const [draft, setDraft] = useState(search);
  const list = useAppSummaries(search, cursor);
  const rows = list.data?.data ?? [];

  const go = (next: { q?: string; cursor?: string | undefined }) => {
    const q = new URLSearchParams();
    if (next.q) q.set("q", next.q);
    if (next.cursor) q.set("cursor", next.cursor);
    router.replace(`${pathname}${q.size ? `?${q}` : ""}`, { scroll: false });
  };

  const [creating, setCreating] = useState(false);
  const [name, setName] = useState("");
  const [uid, setUid] = useState("");
  const m = useConsoleMutations();

  return (
    <>
      <PageHeader
        title="Applications"
        description="Your customers: each application has its own endpoints, deliveries and portal. Newest first, with what each delivered in the last 24 hours (and the share that succeeded) and what is failing or held behind an open circuit now."
        actions={
          canWrite && (
            <Button variant="primary" onClick={() => { m.createApp.reset(); setCreating(true); }}>
              New application
            </Button>
          )
        }
      />
      <form
        role="search"
        className="mb-4 flex max-w-xl gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          go({ q: draft.trim() });
        }}
      >
        <label className="sr-only" htmlFor="app-search">
          Search applications
        </label>
        <input
          id="app-search"
          type="search"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder="Name, uid or app_ id"
          className={inputClass}
        />
        <Button type="submit">Search</Button>
      </form>
      {list.isPending && <Spinner label="Loading applications" />}
      {list.error && <Notice tone="error" title="Could not load applications">{list.error.message}</Notice>}
      {list.data && rows.length === 0 && (
        <EmptyState title={search ? `No application matches “${search}”` : "No applications yet"}>
          {search ? "Search looks at names (any part, any case), uids and ids." : "Create one here or with POST /api/v1/app."}
        </EmptyState>
      )}
      {rows.length > 0 && <ApplicationTable rows={rows} busy={list.isPlaceholderData} />}
      {list.data && (
        <nav aria-label="Pages" className="mt-3 flex items-center justify-between gap-2">
          <Button
            disabled={!cursor}
            onClick={() => go({ q: search, cursor: cursor?.startsWith("-") && list.data.done ? undefined : (list.data.prevIterator ?? undefined) })}
          >
            ← Newer
          </Button>
          <Button disabled={cursor?.startsWith("-") ? !rows.length : list.data.done} onClick={() => go({ q: search, cursor: list.data.iterator ?? undefined })}>
            Older →
          </Button>
        </nav>
      )}

      <Dialog
        open={creating}
        onClose={() => setCreating(false)}
        title="New application"
        footer={
          <>
            <Button onClick={() => setCreating(false)}>Cancel</Button>
            <Button
              variant="primary"
              type="submit"
              form="new-app"
              disabled={m.createApp.isPending}
            >
              Create application
            </Button>
          </>
        }
      >
        <form
          id="new-app"
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            m.createApp.mutate(
              { name: name.trim(), ...(uid.trim() ? { uid: uid.trim() } : {}) },
              { onSuccess: (app) => router.push(`/console/applications/${app.id}`) },
            );
          }}
        >
          <Field label="Name" error={fieldError(m.createApp.error, "name")}>
            {(f) => <input id={f.id} aria-describedby={f.describedBy} aria-invalid={f.invalid} className={inputClass} value={name} onChange={(e) => setName(e.target.value)} required />}
          </Field>
          <Field label="uid (optional)" hint="Your own id for this customer; the API accepts it wherever an app_ id goes." error={fieldError(m.createApp.error, "uid")}>
            {(f) => <input id={f.id} aria-describedby={f.describedBy} aria-invalid={f.invalid} className={inputClass} value={uid} onChange={(e) => setUid(e.target.value)} />}
          </Field>
          {m.createApp.error && !fieldError(m.createApp.error, "name") && !fieldError(m.createApp.error, "uid") && <ErrorText message={m.createApp.error.message} className="text-sm" />}
        </form>
      </Dialog>
    </>
  );
}
