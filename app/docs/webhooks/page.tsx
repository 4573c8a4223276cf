import type { Metadata } from "next";
import { IntegrationGuide } from "@/components/guide/integration-guide";
import { guideFacts } from "@/lib/portal/guide-facts";

// /docs/webhooks — the integrator guide, public, for operators to link from their own docs. The
// numbers are this server's settings, read per request.
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Receiving webhooks — integration guide" };

export default function WebhooksGuidePage() {
  return (
    <main className="mx-auto max-w-3xl space-y-6 px-4 py-10">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold text-slate-900">Receiving webhooks</h1>
        <p className="text-sm text-slate-600">
          How events are delivered to your endpoints, how to verify them, what happens when your server fails, and the tools to test before you
          deploy.
        </p>
      </header>
      <IntegrationGuide
        facts={guideFacts()}
        catalog={
          <p>
            The event types you can subscribe to, with their schemas and example payloads, are on the <em>Event catalog</em> page of your portal
            (the link your provider gives you), which also downloads them as an OpenAPI document. Retry timings above are this server&apos;s
            defaults; your portal shows your provider&apos;s own if it set one.
          </p>
        }
      />
    </main>
  );
}
