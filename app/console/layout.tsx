import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { getConsoleSession, mustSetPasswordFirst } from "@/lib/accounts/console-session";
import { ConsoleFrame } from "./_lib/console-frame";
import { ENVIRONMENT_COOKIE } from "./_lib/constants";
import { ConsoleProviders } from "./_lib/providers";

// The operator console. Every page needs a signed-in user with at least one environment
// membership; the data itself comes from the operator API, which checks the session again.
export const metadata: Metadata = {
  title: { template: "%s · Herald console", default: "Herald console" },
  robots: { index: false, follow: false },
};

/** The console page asked for (proxy.ts stamps it), to come back to after sign-in or the password. */
const requestedPath = async () => (await headers()).get("x-herald-pathname") ?? "/console";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const session = await getConsoleSession();
  if (!session) {
    redirect(`/sign-in?callbackUrl=${encodeURIComponent(await requestedPath())}`);
  }
  if (session.environments.length === 0) {
    return (
      <main className="mx-auto max-w-xl p-10">
        <h1 className="text-xl font-semibold">No environment yet</h1>
        <p className="mt-2 text-sm text-slate-600">
          You are signed in as {session.user.email}, but you are not a member of any environment. Ask an owner of one to invite you.
        </p>
      </main>
    );
  }
  if (await mustSetPasswordFirst(session.user.id)) {
    redirect(`/account?welcome=1&next=${encodeURIComponent(await requestedPath())}`);
  }
  const remembered = (await cookies()).get(ENVIRONMENT_COOKIE)?.value;
  const initial = session.environments.find((e) => e.id === remembered)?.id ?? session.environments[0]!.id;
  return (
    <ConsoleProviders user={session.user} environments={session.environments} initialEnvironmentId={initial}>
      <ConsoleFrame>{children}</ConsoleFrame>
    </ConsoleProviders>
  );
}
