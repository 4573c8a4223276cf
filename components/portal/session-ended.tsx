/** Full-page message when the portal cannot be used: expired, revoked or invalid link, and so on. */
export function SessionEnded({ title, body }: { title: string; body: string }) {
  return (
    <main className="mx-auto max-w-lg p-6 sm:p-10">
      <div role="alert" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
        <p className="mt-2 text-sm text-slate-600">{body}</p>
      </div>
    </main>
  );
}
