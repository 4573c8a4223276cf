"use client";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

// Sign out (this browser: next-auth's sign-out, which also deletes the server-side session) and
// sign out everywhere (every session of this user; /api/account/sign-out-everywhere).
export function SignOutButtons({ callbackUrl = "/sign-in" }: { callbackUrl?: string }) {
  const [error, setError] = useState<string | null>(null);
  async function everywhere() {
    const res = await fetch("/api/account/sign-out-everywhere", { method: "POST", headers: { "x-herald-csrf": "1" } });
    if (!res.ok) return setError("Could not sign out everywhere; try again.");
    window.location.assign(callbackUrl);
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button onClick={() => void signOut({ callbackUrl })}>Sign out</Button>
      <Button variant="ghost" onClick={() => void everywhere()}>
        Sign out everywhere
      </Button>
      {error && <span className="text-sm text-red-700">{error}</span>}
    </div>
  );
}
