import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { sessionCookieName } from "@/lib/accounts/auth-secret";
import { userFromSessionToken } from "@/lib/accounts/session-cookie";
import { memberApplications } from "@/lib/accounts/portal-sign-in";

// /portal/sign-in/choose — the picker for an integrator who belongs to several applications.
export const metadata: Metadata = { title: "Choose a portal · Herald" };
export const dynamic = "force-dynamic";

export default async function ChoosePortal() {
  const user = await userFromSessionToken((await cookies()).get(sessionCookieName())?.value ?? null);
  if (!user) redirect("/portal/sign-in");
  const apps = await memberApplications(user.id);
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6 py-12">
      <h1 className="text-xl font-semibold text-slate-900">Choose a portal</h1>
      <p className="mb-6 mt-1 text-sm text-slate-600">Signed in as {user.email}. You have access to these applications:</p>
      {apps.length === 0 ? (
        <p className="text-sm text-slate-600">No application yet: ask the provider of the service to invite you.</p>
      ) : (
        <ul className="space-y-2">
          {apps.map((a) => (
            <li key={a.id}>
              <form method="post" action="/portal/sign-in/continue">
                <input type="hidden" name="app" value={a.id} />
                <button type="submit" className="flex w-full items-center justify-between rounded-md border border-slate-300 bg-white px-4 py-3 text-left hover:bg-slate-50">
                  <span>
                    <span className="block font-medium text-slate-900">{a.name}</span>
                    <span className="block text-xs text-slate-500">{a.provider}</span>
                  </span>
                  <span className="text-xs text-slate-500">{a.role === "viewer" ? "read-only" : "admin"}</span>
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
