"use client";
import { useMemo, useState } from "react";
import { checkSchemaText } from "@/lib/event-types/check-schema";
import { exampleAt } from "@/lib/event-types/example-payload";
import type { EventTypeOut } from "@/lib/event-types/serialize";
import { Button } from "../ui/button";
import { CodeBlock } from "../ui/code-block";
import { Field, inputClass } from "../ui/field";
import { ErrorText } from "../ui/notice";

export type EventTypeDraft = {
  name: string;
  description: string;
  featureFlag: string | null;
  deprecated: boolean;
  archived: boolean;
  schemas: Record<string, Record<string, unknown>> | null;
};

const STARTER = `{
  "type": "object",
  "required": ["id"],
  "properties": {
    "id": { "type": "string", "examples": ["obj_123"] }
  }
}`;

/**
 * Create or edit an event type: each schema version is checked as you type (JSON, then the
 * JSON Schema meta-schema), and the example beside it is the one the portal shows and
 * send-example sends (the same generator, lib/event-types/example-payload.ts).
 */
export function EventTypeEditor({
  initial,
  readOnly,
  saving,
  error,
  fieldErrors,
  onSave,
  onCancel,
}: {
  initial: EventTypeOut | null;
  readOnly: boolean;
  saving: boolean;
  error: string | undefined;
  fieldErrors: { name?: string | undefined; description?: string | undefined; featureFlag?: string | undefined };
  onSave: (draft: EventTypeDraft) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(initial?.name ?? "");
  const [description, setDescription] = useState(initial?.description ?? "");
  const [flag, setFlag] = useState(initial?.featureFlag ?? "");
  const [deprecated, setDeprecated] = useState(initial?.deprecated ?? false);
  const [archived, setArchived] = useState(initial?.archived ?? false);
  const [texts, setTexts] = useState<Record<string, string>>(() => {
    const s = initial?.schemas ?? null;
    if (!s || Object.keys(s).length === 0) return { "1": STARTER };
    return Object.fromEntries(Object.entries(s).map(([v, schema]) => [v, JSON.stringify(schema, null, 2)]));
  });
  const versions = Object.keys(texts).sort((a, b) => Number(a) - Number(b));
  const [version, setVersion] = useState(versions[versions.length - 1] ?? "1");

  const checks = useMemo(() => Object.fromEntries(Object.entries(texts).map(([v, t]) => [v, t.trim() === "" ? null : checkSchemaText(t)])), [texts]);
  const allOk = Object.values(checks).every((c) => c === null || c.ok);
  const schemas = useMemo(() => {
    const out: Record<string, Record<string, unknown>> = {};
    for (const [v, c] of Object.entries(checks)) if (c?.ok) out[v] = c.schema;
    return out;
  }, [checks]);
  const example = allOk && Object.keys(schemas).length > 0 ? exampleAt(schemas, 0) : null;
  const current = checks[version];

  return (
    <form
      className="space-y-4"
      aria-label={initial ? `Edit ${initial.name}` : "New event type"}
      onSubmit={(e) => {
        e.preventDefault();
        if (!allOk) return;
        onSave({
          name: name.trim(),
          description,
          featureFlag: flag.trim() || null,
          deprecated,
          archived,
          schemas: Object.keys(schemas).length > 0 ? schemas : null,
        });
      }}
    >
      <fieldset disabled={readOnly} className="space-y-4">
        {!initial && (
          <Field label="Name" hint="resource.action, e.g. invoice.paid" error={fieldErrors.name}>
            {(f) => <input id={f.id} aria-describedby={f.describedBy} aria-invalid={f.invalid} className={inputClass} value={name} onChange={(e) => setName(e.target.value)} required placeholder="invoice.paid" />}
          </Field>
        )}
        <Field label="Description" error={fieldErrors.description}>
          {(f) => <textarea id={f.id} aria-describedby={f.describedBy} aria-invalid={f.invalid} className={inputClass} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        <div className="flex flex-wrap gap-4">
          <div className="min-w-48 flex-1">
            <Field label="Feature flag" hint="Only portal links with this flag see this event type." error={fieldErrors.featureFlag}>
              {(f) => <input id={f.id} aria-describedby={f.describedBy} aria-invalid={f.invalid} className={inputClass} value={flag} onChange={(e) => setFlag(e.target.value)} placeholder="none" />}
            </Field>
          </div>
          <label className="flex items-center gap-2 self-center text-sm">
            <input type="checkbox" checked={deprecated} onChange={(e) => setDeprecated(e.target.checked)} /> Deprecated
          </label>
          <label className="flex items-center gap-2 self-center text-sm">
            <input type="checkbox" checked={archived} onChange={(e) => setArchived(e.target.checked)} /> Archived
          </label>
        </div>

        <div className="grid gap-4 lg:grid-cols-2">
          <div className="space-y-2">
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-sm font-medium text-slate-800" id="schema-versions">
                JSON Schema, version
              </span>
              <div role="group" aria-labelledby="schema-versions" className="flex gap-1">
                {versions.map((v) => (
                  <button
                    key={v}
                    type="button"
                    aria-pressed={v === version}
                    onClick={() => setVersion(v)}
                    className={`rounded px-2 py-0.5 text-xs font-medium ${v === version ? "bg-blue-700 text-white" : "bg-slate-100 text-slate-700"} ${checks[v] && !checks[v].ok ? "ring-2 ring-red-500" : ""}`}
                  >
                    v{v}
                  </button>
                ))}
              </div>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  const next = String(Math.max(0, ...versions.map(Number)) + 1);
                  setTexts((t) => ({ ...t, [next]: t[version] ?? STARTER }));
                  setVersion(next);
                }}
              >
                + Add version
              </Button>
            </div>
            <label className="sr-only" htmlFor="schema-text">
              JSON Schema of version {version}
            </label>
            <textarea
              id="schema-text"
              spellCheck={false}
              className={`${inputClass} font-mono text-xs`}
              rows={16}
              value={texts[version] ?? ""}
              aria-invalid={current ? !current.ok : false}
              aria-describedby="schema-check"
              onChange={(e) => setTexts((t) => ({ ...t, [version]: e.target.value }))}
            />
            <p id="schema-check" role="status" className={`text-xs font-medium ${current && !current.ok ? "text-red-700" : "text-green-800"}`}>
              {current === null || current === undefined ? "No schema for this version (it will not be saved)." : current.ok ? "Valid JSON Schema." : current.error}
            </p>
          </div>
          <div className="space-y-2">
            <p className="text-sm font-medium text-slate-800">Example payload (as the portal shows it)</p>
            {example ? (
              <CodeBlock title="data" code={JSON.stringify(example, null, 2)} copyLabel="example payload" />
            ) : (
              <p className="text-sm text-slate-500">{allOk ? "Add a schema to see its example." : "Fix the schema to see its example."}</p>
            )}
          </div>
        </div>
      </fieldset>
      <ErrorText message={error} className="text-sm" />
      <div className="flex gap-2">
        {!readOnly && (
          <Button type="submit" variant="primary" disabled={saving || !allOk}>
            {initial ? "Save event type" : "Create event type"}
          </Button>
        )}
        <Button onClick={onCancel}>{readOnly ? "Close" : "Cancel"}</Button>
      </div>
    </form>
  );
}
