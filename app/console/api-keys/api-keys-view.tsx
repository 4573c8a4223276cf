"use client";
import { useState } from "react";
import { ApiKeyTable } from "@/components/console/api-key-table";
import { PageHeader } from "@/components/portal/page-header";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { Field, inputClass } from "@/components/ui/field";
import { EmptyState, ErrorText, Notice, Spinner } from "@/components/ui/notice";
import type { ApiKeyOut } from "@/lib/environments/api-keys";
import { fieldError } from "../_lib/api";
import { useConsole } from "../_lib/providers";
import { useApiKeys, useConsoleMutations } from "../_lib/queries";

export function ApiKeysView() {
  const { environment } = useConsole();
  // Keys act with the owner role: only owners create or revoke them (the server refuses others).
  const canWrite = environment.role === "owner";
  const keys = useApiKeys();
  const m = useConsoleMutations();
  const [name, setName] = useState("");
  const [created, setCreated] = useState<(ApiKeyOut & { key: string }) | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyOut | null>(null);
  return (
    <>
      <PageHeader
        title="API keys"
        description={`Keys of ${environment.name} for the operator API (Authorization: Bearer …). A key is shown once, when it is created; Herald keeps only its hash.`}
      />
      {!canWrite && (
        <p className="mb-4 max-w-2xl text-sm text-slate-600" role="note">
          Only owners create and revoke API keys: a key acts with the owner role. Your role here is {environment.role}.
        </p>
      )}
      {canWrite && (
        <form
          className="mb-4 flex max-w-xl items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            m.createApiKey.mutate(name.trim(), {
              onSuccess: (k) => {
                setCreated(k);
                setName("");
              },
            });
          }}
        >
          <div className="flex-1">
            <Field label="New key's name" error={fieldError(m.createApiKey.error, "name")}>
              {(f) => (
                <input id={f.id} aria-describedby={f.describedBy} aria-invalid={f.invalid} className={inputClass} value={name} onChange={(e) => setName(e.target.value)} placeholder="production backend" required />
              )}
            </Field>
          </div>
          <Button type="submit" variant="primary" disabled={m.createApiKey.isPending}>
            Create API key
          </Button>
        </form>
      )}
      {m.createApiKey.error && !fieldError(m.createApiKey.error, "name") && <ErrorText message={m.createApiKey.error.message} className="mb-4 text-sm" />}
      {created && (
        <div className="mb-4">
          <Notice tone="success" title={`API key “${created.name}” created: copy it now, it is not shown again`}>
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <code className="break-all rounded bg-white px-2 py-1 font-mono text-xs" aria-label="New API key">
                {created.key}
              </code>
              <CopyButton text={created.key} label="Copy key" what="API key" />
              <Button size="sm" variant="ghost" onClick={() => setCreated(null)}>
                I have stored it
              </Button>
            </div>
          </Notice>
        </div>
      )}
      {keys.isPending && <Spinner label="Loading API keys" />}
      {keys.error && <Notice tone="error">{keys.error.message}</Notice>}
      {keys.data && keys.data.data.length === 0 && <EmptyState title="No API keys" />}
      {keys.data && keys.data.data.length > 0 && (
        <ApiKeyTable
          keys={keys.data.data}
          canRevoke={canWrite}
          onRevoke={(k) => {
            m.revokeApiKey.reset();
            setRevoking(k);
          }}
        />
      )}
      <Dialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        footer={
          <>
            <Button onClick={() => setRevoking(null)}>Cancel</Button>
            <Button
              variant="danger"
              disabled={m.revokeApiKey.isPending}
              onClick={() => revoking && m.revokeApiKey.mutate(revoking.id, { onSuccess: () => setRevoking(null) })}
            >
              Revoke key
            </Button>
          </>
        }
      >
        <p className="text-sm text-slate-700">
          Requests with <code className="font-mono text-xs">{revoking?.prefix}…</code> are refused within a few seconds. This cannot be undone; create a new key instead.
        </p>
        <ErrorText message={m.revokeApiKey.error?.message} className="mt-2 text-sm" />
      </Dialog>
    </>
  );
}
