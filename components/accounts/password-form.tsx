"use client";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";

// Set a first password (after an email invitation) or change one (the current one first). The
// two new-password boxes must agree before anything is sent; the server checks the rest
// (length, the current password) and its message is shown as it is.

const MIN_LENGTH = 10;

export function PasswordForm({ hasPassword, next }: { hasPassword: boolean; next: string | null }) {
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formElement = e.currentTarget; // React clears currentTarget once the handler awaits
    const form = new FormData(formElement);
    const value = (name: string) => {
      const v = form.get(name);
      return typeof v === "string" ? v : "";
    };
    setError(null);
    setDone(null);
    if (value("newPassword") !== value("confirmPassword")) return setError("The two new passwords are not the same.");
    if (value("newPassword").length < MIN_LENGTH) return setError(`The password must have at least ${MIN_LENGTH} characters.`);
    setBusy(true);
    const res = await fetch("/api/account/password", {
      method: "POST",
      headers: { "content-type": "application/json", "x-herald-csrf": "1" },
      body: JSON.stringify({ ...(hasPassword ? { currentPassword: value("currentPassword") } : {}), newPassword: value("newPassword") }),
    }).catch(() => null);
    setBusy(false);
    if (!res) return setError("Herald could not be reached. Try again.");
    if (!res.ok) {
      const body = (await res.json().catch(() => ({}))) as { detail?: unknown };
      const detail = Array.isArray(body.detail)
        ? (body.detail as { loc: string[]; msg: string }[]).map((d) => `${d.loc.at(-1)}: ${d.msg}`).join("; ")
        : typeof body.detail === "string"
          ? body.detail
          : `The password was not saved (HTTP ${res.status}).`;
      return setError(detail.endsWith(".") ? detail : `${detail}.`);
    }
    if (next) return window.location.assign(next);
    formElement.reset();
    setDone(hasPassword ? "Password changed. Your other browsers were signed out." : "Password set. Next time, sign in with your email and this password.");
  }

  return (
    <form aria-label={hasPassword ? "Change your password" : "Set your password"} onSubmit={(e) => void submit(e)} className="space-y-4">
      {hasPassword && (
        <Field label="Current password">
          {({ id }) => <input id={id} name="currentPassword" type="password" autoComplete="current-password" required className={inputClass} />}
        </Field>
      )}
      <Field label="New password" hint={`At least ${MIN_LENGTH} characters.`}>
        {({ id, describedBy }) => (
          <input id={id} name="newPassword" type="password" autoComplete="new-password" required aria-describedby={describedBy} className={inputClass} />
        )}
      </Field>
      <Field label="New password, again">
        {({ id }) => <input id={id} name="confirmPassword" type="password" autoComplete="new-password" required className={inputClass} />}
      </Field>
      {error && <Notice tone="error">{error}</Notice>}
      {done && <Notice tone="success">{done}</Notice>}
      <Button type="submit" variant="primary" disabled={busy}>
        {busy ? "Saving…" : hasPassword ? "Change password" : "Set password"}
      </Button>
    </form>
  );
}
