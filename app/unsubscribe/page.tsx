import Link from "next/link";
import type { Metadata } from "next";
import { ApiError } from "@/lib/http/errors";
import { describeUnsubscribe, type UnsubscribeView } from "@/lib/notifications/unsubscribe";

// /unsubscribe?token=… — the link in an endpoint alert's footer. No sign-in. A GET only shows
// the page (link scanners open every link in an email); the button posts the one-click
// unsubscribe, which comes back here with done=1.
export const metadata: Metadata = { title: "Unsubscribe from endpoint alerts · Herald" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function UnsubscribePage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const token = typeof params.token === "string" ? params.token : "";
  let view: UnsubscribeView = null;
  let error: string | null = null;
  try {
    view = token ? await describeUnsubscribe(token) : null;
    if (!token) error = "This unsubscribe link has no token; use the link from the email as it is.";
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    error = e.detail;
  }
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6 py-12">
      {/* eslint-disable-next-line @next/next/no-img-element -- a static SVG from public/ */}
      <img src="/logo.svg" alt="Herald" width={120} height={32} className="mb-8" />
      <h1 className="text-xl font-semibold text-slate-900">Endpoint alerts</h1>
      {error ? (
        <p role="alert" className="mt-3 rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : !view ? (
        <p className="mt-3 text-sm text-slate-700">This address no longer belongs to the application, so it gets no alerts.</p>
      ) : !view.subscribed ? (
        <div role="status" className="mt-3 text-sm text-slate-700">
          <p>
            <strong>{view.email}</strong> no longer gets emails about the endpoints of <strong>{view.application}</strong>.
          </p>
          <p className="mt-2">Changed your mind? Sign in to your portal and turn them on again under Notifications.</p>
        </div>
      ) : (
        <form method="post" action={`/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`} className="mt-3 text-sm text-slate-700">
          <input type="hidden" name="from" value="page" />
          <p>
            Stop emailing <strong>{view.email}</strong> when an endpoint of <strong>{view.application}</strong> starts failing, is
            disabled or recovers?
          </p>
          <button type="submit" className="mt-4 rounded bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
            Unsubscribe
          </button>
        </form>
      )}
      <p className="mt-8 text-sm text-slate-500">
        <Link className="text-blue-700 underline" href="/portal/sign-in">
          Sign in to your portal
        </Link>
      </p>
    </main>
  );
}
