"use client";
import { useEffect, useId, useState } from "react";
import { Button } from "../ui/button";
import { ErrorText, Notice } from "../ui/notice";

/**
 * A member's opt-in to endpoint alerts: one checkbox, saved with a button (a change of mind before
 * saving sends nothing). Says so when the server cannot send email at all.
 */
export function AlertSettingsForm({
  email,
  enabled,
  emailConfigured,
  saving,
  error,
  onSave,
}: {
  email: string;
  enabled: boolean;
  emailConfigured: boolean;
  saving: boolean;
  error: string | null;
  /** Resolves once saved (rejects with the error shown as `error`). */
  onSave: (enabled: boolean) => Promise<unknown>;
}) {
  const [checked, setChecked] = useState(enabled);
  const [saved, setSaved] = useState(false);
  const id = useId();
  useEffect(() => setChecked(enabled), [enabled]);
  return (
    <form
      aria-label="Email alerts"
      className="max-w-xl space-y-4 rounded-lg border border-slate-200 bg-white p-5"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        void onSave(checked).then(
          () => setSaved(true),
          () => undefined,
        );
      }}
    >
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={(e) => {
            setChecked(e.target.checked);
            setSaved(false);
          }}
          className="mt-1 h-4 w-4"
        />
        <label htmlFor={id} className="text-sm text-slate-800">
          <span className="font-medium">Email me about this application&apos;s endpoints</span>
          <span className="mt-0.5 block text-slate-600">
            When an endpoint starts failing, when Herald disables it, and when it recovers: one email per change, to{" "}
            <strong>{email}</strong>. Every email has a one-click unsubscribe link.
          </span>
        </label>
      </div>
      {!emailConfigured && (
        <Notice tone="warn">This Herald server has no email configured, so no alerts can be sent yet. Your choice is kept.</Notice>
      )}
      <div className="flex items-center gap-3">
        <Button type="submit" variant="primary" disabled={saving || checked === enabled}>
          {saving ? "Saving…" : "Save"}
        </Button>
        {saved && !saving && checked === enabled && (
          <p role="status" className="text-sm text-green-800">
            {enabled ? "Saved: you will get endpoint alerts." : "Saved: no endpoint alerts."}
          </p>
        )}
      </div>
      <ErrorText message={error} className="text-sm" />
    </form>
  );
}
