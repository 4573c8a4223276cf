"use client";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { Suspense, useState } from "react";
import { DeliveryStatusBadge } from "@/components/portal/delivery-status";
import { PageHeader } from "@/components/portal/page-header";
import { RequestPreview } from "@/components/portal/request-preview";
import { Button } from "@/components/ui/button";
import { statusCodeLabel } from "@/components/ui/format";
import { EmptyState, ErrorText, Notice, Spinner } from "@/components/ui/notice";
import {
  useCatalog,
  useDelivery,
  useDeliveryLogs,
  useEndpoints,
  useExamplePreview,
  usePortal,
  usePortalMutations,
} from "../../_lib/queries";

/** After sending: the delivery of the new message, polled until its first attempt is in. */
function SentResult({ msgId, endpointId }: { msgId: string; endpointId: string }) {
  const logs = useDeliveryLogs({ search: msgId, endpoint: endpointId }, { live: true, limit: 5 });
  const row = logs.data?.data[0];
  const delivery = useDelivery(row?.id ?? null, true);
  const last = delivery.data?.attempts[delivery.data.attempts.length - 1];
  return (
    <section
      aria-label="Result"
      className="space-y-2 rounded-lg border border-slate-200 bg-white p-4"
      aria-live="polite"
    >
      <p className="text-sm">
        Sent as <span className="font-mono">{msgId}</span>.
      </p>
      {!row && <Spinner label="Waiting for the delivery" />}
      {row && !last && <Spinner label="Waiting for the first attempt" />}
      {row && last && (
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <DeliveryStatusBadge status={delivery.data!.status} />
          <span>
            Attempt {delivery.data!.attempts.length}: <strong>{statusCodeLabel(last.responseStatusCode)}</strong> in{" "}
            {last.responseDurationMs} ms
          </span>
          <Link className="text-blue-800 hover:underline" href={`/portal/logs?search=${msgId}&delivery=${row.id}`}>
            Open in the inspector
          </Link>
        </div>
      )}
    </section>
  );
}

function Send() {
  const params = useSearchParams();
  const router = useRouter();
  const { capabilities } = usePortal();
  const endpoints = useEndpoints();
  const catalog = useCatalog();
  const m = usePortalMutations();
  const endpointId = params.get("endpoint") ?? endpoints.data?.data[0]?.id ?? null;
  const types = (catalog.data?.data ?? []).filter((t) => !t.archived);
  const eventType = params.get("eventType") ?? types[0]?.name ?? null;
  const preview = useExamplePreview(endpointId, eventType, capabilities.sendExample);
  const [sent, setSent] = useState<{ msgId: string; endpointId: string } | null>(null);
  const choose = (patch: Record<string, string>) => {
    const q = new URLSearchParams({
      ...(endpointId ? { endpoint: endpointId } : {}),
      ...(eventType ? { eventType } : {}),
      ...patch,
    });
    setSent(null);
    router.replace(`/portal/send?${q}`, { scroll: false });
  };

  if (!capabilities.sendExample) return <Notice tone="warn">This portal link cannot send sample events.</Notice>;
  if (endpoints.isPending || catalog.isPending) return <Spinner label="Loading" />;
  if (!endpoints.data?.data.length)
    return <EmptyState title="Add an endpoint first">Sample events are sent to one of your endpoints.</EmptyState>;
  const select = "w-full rounded-md border border-slate-300 bg-white px-2 py-2 text-sm";
  return (
    <>
      <PageHeader
        title="Send a sample event"
        description="Pick an event type and an endpoint: you see the exact request Herald will send, then the attempt as it happens. Sample payloads come from the event type's schema."
      />
      <div className="grid gap-4 lg:grid-cols-[20rem_1fr]">
        <div className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
          <label className="block space-y-1 text-sm">
            <span className="font-medium">Event type</span>
            <select className={select} value={eventType ?? ""} onChange={(e) => choose({ eventType: e.target.value })}>
              {types.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.name}
                  {t.deprecated ? " (deprecated)" : ""}
                </option>
              ))}
            </select>
          </label>
          <label className="block space-y-1 text-sm">
            <span className="font-medium">Endpoint</span>
            <select className={select} value={endpointId ?? ""} onChange={(e) => choose({ endpoint: e.target.value })}>
              {endpoints.data.data.map((ep) => (
                <option key={ep.id} value={ep.id}>
                  {ep.url}
                  {ep.state !== "active" ? ` (${ep.state})` : ""}
                </option>
              ))}
            </select>
          </label>
          <Button
            variant="primary"
            className="w-full"
            disabled={!endpointId || !eventType || m.sendExample.isPending}
            onClick={() =>
              endpointId &&
              eventType &&
              m.sendExample.mutate(
                { endpointId, eventType },
                { onSuccess: (msg) => setSent({ msgId: msg.id, endpointId }) },
              )
            }
          >
            {m.sendExample.isPending ? "Sending…" : "Send sample event"}
          </Button>
          <ErrorText message={m.sendExample.error?.message} className="text-sm" />
          {endpoints.data.data.find((e) => e.id === endpointId)?.state !== "active" && (
            <p className="text-xs text-amber-800">
              This endpoint is not active: the sample will wait until it is resumed.
            </p>
          )}
          {sent && <SentResult msgId={sent.msgId} endpointId={sent.endpointId} />}
        </div>
        <section
          aria-labelledby="preview-heading"
          className="min-w-0 space-y-2 rounded-lg border border-slate-200 bg-white p-4"
        >
          <h2 id="preview-heading" className="text-base font-semibold">
            The request that will be sent
          </h2>
          <p className="text-xs text-slate-500">
            Built by the delivery engine with your endpoint&apos;s current key and custom headers (secret header values
            shown as [redacted]). The real send gets its own message id, so <code>webhook-id</code>,{" "}
            <code>webhook-timestamp</code> and the signature will differ.
          </p>
          {preview.isPending && <Spinner label="Building the request" />}
          {preview.error && <Notice tone="error">{preview.error.message}</Notice>}
          {preview.data && (
            <RequestPreview
              method={preview.data.method}
              url={preview.data.url}
              headers={preview.data.headers}
              body={preview.data.body}
            />
          )}
        </section>
      </div>
    </>
  );
}

export default function SendPage() {
  return (
    <Suspense fallback={<Spinner label="Loading" />}>
      <Send />
    </Suspense>
  );
}
