export default function Home() {
  return (
    <main className="mx-auto max-w-2xl p-10">
      <h1 className="text-3xl font-semibold">
        {/* eslint-disable-next-line @next/next/no-img-element -- a static SVG from public/, nothing to optimise */}
        <img src="/logo.svg" alt="Herald" width={148} height={40} />
      </h1>
      <p className="mt-3 text-slate-600">
        Self-hosted webhook delivery: signed with Standard Webhooks, retried with backoff, dead-lettered
        when it cannot be delivered, never lost.
      </p>
      <ul className="mt-6 list-disc space-y-1 pl-6 text-slate-700">
        <li>
          Operator API: <code>/api/v1</code> (Svix-compatible; OpenAPI at{" "}
          <a className="text-blue-700 underline" href="/api/v1/openapi.json">
            /api/v1/openapi.json
          </a>
          )
        </li>
        <li>Consumer portal: opened through a link from <code>POST /api/v1/auth/app-portal-access/&#123;app_id&#125;</code></li>
        <li>
          Health:{" "}
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- an API route (the catch-all under /api/v1 looks like a page to the rule) */}
          <a className="text-blue-700 underline" href="/api/v1/health/status">/api/v1/health/status</a>
        </li>
      </ul>
    </main>
  );
}
