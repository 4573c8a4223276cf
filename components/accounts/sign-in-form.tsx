"use client";
import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { signInMessage } from "@/lib/accounts/sign-in-messages";

// The sign-in forms (used by /sign-in and /portal/sign-in): password, email link, single sign-on.
// Which appear is decided by the server page (what is configured). Errors come back from
// next-auth as a code or as our own message (lib/accounts/sign-in-messages.ts).

const formText = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

export type SignInMethods = {
  password: boolean;
  email: boolean;
  oidc: { id: string; name: string } | null;
};

export function SignInForm({
  methods,
  callbackUrl,
  initialError,
}: {
  methods: SignInMethods;
  callbackUrl: string;
  initialError: string | null;
}) {
  const [error, setError] = useState<string | null>(initialError);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const explain = (code: string | null | undefined) => signInMessage(code) ?? "Sign-in failed. Try again.";

  async function withPassword(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    const res = await signIn("credentials", {
      email: formText(form, "email"),
      password: formText(form, "password"),
      redirect: false,
      callbackUrl,
    });
    if (!res || res.error || !res.ok) {
      setBusy(false);
      setError(explain(res?.error));
      return;
    }
    window.location.assign(callbackUrl);
  }

  async function withEmail(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const email = formText(new FormData(e.currentTarget), "email").trim();
    setBusy(true);
    setError(null);
    const res = await signIn("email", { email, redirect: false, callbackUrl });
    setBusy(false);
    if (!res || res.error) setError(explain(res?.error ?? "EmailSignin"));
    else setSentTo(email);
  }

  if (sentTo)
    return (
      <Notice tone="success" title="Check your email">
        If <strong>{sentTo}</strong> has an account, a sign-in link is on its way. It works once, within 15 minutes.
      </Notice>
    );

  return (
    <div className="space-y-6">
      {error && <Notice tone="error">{error}</Notice>}
      {methods.password && (
        <form onSubmit={(e) => void withPassword(e)} className="space-y-4" aria-label="Sign in with a password">
          <Field label="Email">
            {({ id }) => <input id={id} name="email" type="email" autoComplete="username" required className={inputClass} />}
          </Field>
          <Field label="Password">
            {({ id }) => <input id={id} name="password" type="password" autoComplete="current-password" required className={inputClass} />}
          </Field>
          <Button type="submit" variant="primary" disabled={busy} className="w-full">
            Sign in
          </Button>
        </form>
      )}
      {methods.email ? (
        <form onSubmit={(e) => void withEmail(e)} className="space-y-4" aria-label="Sign in with an email link">
          {methods.password && <p className="text-center text-xs uppercase tracking-wide text-slate-400">or get a link by email</p>}
          <Field label={methods.password ? "Email for a sign-in link" : "Email"}>
            {({ id }) => <input id={id} name="email" type="email" autoComplete="email" required className={inputClass} />}
          </Field>
          <Button type="submit" variant={methods.password ? "secondary" : "primary"} disabled={busy} className="w-full">
            Email me a sign-in link
          </Button>
        </form>
      ) : (
        <p className="text-sm text-slate-500" role="note">
          Email sign-in is not configured on this server (it needs <code>HERALD_SMTP_URL</code> and{" "}
          <code>HERALD_EMAIL_FROM</code>).
        </p>
      )}
      {methods.oidc && (
        <Button variant="secondary" className="w-full" disabled={busy} onClick={() => void signIn(methods.oidc!.id, { callbackUrl })}>
          Continue with {methods.oidc.name}
        </Button>
      )}
    </div>
  );
}
