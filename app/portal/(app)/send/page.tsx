"use client";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { Suspense, useMemo, useState } from "react";
import { DeliveryStatusBadge } from "@/components/portal/delivery-status";
import { WaitReasonText } from "@/components/portal/wait-reason";
import type { WaitReason } from "@/lib/portal/wait-reason";
import { PageHeader } from "@/components/portal/page-header";
import { RecentMessages } from "@/components/portal/recent-messages";
import { RequestPreview } from "@/components/portal/request-preview";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { statusCodeLabel } from "@/components/ui/format";
import { checkPayloadText, describeProblem, payloadChecker } from "@/lib/event-types/check-payload";
import { EmptyState, ErrorText, Notice, Spinner } from "@/components/ui/notice";
import {
  useCatalog,
  useDelivery,
  useDeliveryOfMessage,
  useEndpoints,
  useExamplePreview,
  usePortal,
  usePortalMutations,
  useRecentMessages,
} from "../../_lib/queries";
import { useDebounced } from "../../_lib/forms";

/** The sample waits for a reason the reader should know (not just "on its way"). */
const held = (w: WaitReason | null | undefined): w is WaitReason => Boolean(w && w.kind !== "sending" && w.kind !== "queued");

/**
 * After sending: the delivery of the new message, polled until its first attempt is in. A sample
 * is an ordinary delivery: behind an open circuit it is held like any other (sending one is no
 * explicit "the endpoint is back" action), so the reason is said at once; a resend is such an
 * action and goes through the circuit now, so it is offered.
 */
function SentResult({ msgId, endpointId }: { msgId: string; endpointId: string }) {
  const { capabilities } = usePortal();
  const m = usePortalMutations();
  const row = useDeliveryOfMessage(msgId, endpointId).data;
  const delivery = useDelivery(row?.id ?? null, true);
  const last = delivery.data?.attempts[delivery.data.attempts.length - 1];
  const waiting = delivery.data?.waiting;
  const circuit = waiting?.kind === "circuit_open" ? waiting : waiting?.kind === "scheduled" ? waiting.circuit : null;
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
      {row && !last && !held(waiting) && <Spinner label="Waiting for the first attempt" />}
      {row && !last && held(waiting) && (
        <div className="space-y-2 text-sm">
          <p data-testid="wait-reason">
            <WaitReasonText reason={waiting} />
          </p>
          {circuit && !circuit.probing && capabilities.retry && (
            <p className="flex flex-wrap items-center gap-2">
              <Button size="sm" disabled={m.retry.isPending} onClick={() => m.retry.mutate({ msgId, endpointId })}>
                Send it now
              </Button>
              <span className="text-xs text-slate-600">
                One attempt goes to your server at once, past the circuit. If it succeeds, the circuit closes and the held
                deliveries follow.
              </span>
            </p>
          )}
          <ErrorText message={m.retry.error?.message} className="text-sm" />
        </div>
      )}
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

/** The payload as the page holds it: the example until edited, then the text typed or taken. */
type PayloadEdit = { eventType: string; text: string } | null;

const pretty = (v: unknown) => JSON.stringify(v, null, 2);

function Send() {
  const params = useSearchParams();
  const router = useRouter();
  const { capabilities } = usePortal();
  const endpoints = useEndpoints();
  const catalog = useCatalog();
  const m = usePortalMutations();
  const endpointId = params.get("endpoint") ?? endpoints.data?.data[0]?.id ?? null;
  const types = (catalog.data?.data ?? []).filter((t) => !t.archived);
  // By default an event type the chosen endpoint subscribes to, not one it would never be sent.
  const filter = endpoints.data?.data.find((e) => e.id === endpointId)?.filterTypes ?? null;
  const eventType = params.get("eventType") ?? (types.find((t) => !filter || filter.includes(t.name)) ?? types[0])?.name ?? null;
  const unsubscribed = Boolean(filter && eventType && !filter.includes(eventType));
  const latest = types.find((t) => t.name === eventType)?.versions[0];
  const exampleText = pretty(latest?.example ?? {});
  const [edit, setEdit] = useState<PayloadEdit>(null);
  const text = edit && edit.eventType === eventType ? edit.text : exampleText;
  // The same checker the server runs on send-example and preview-example (lib/event-types).
  const checker = useMemo(() => payloadChecker(latest?.schema), [latest]);
  const check = useMemo(() => checkPayloadText(text, checker), [text, checker]);
  // Unchanged, nothing is sent but the event type: the server sends its example, as before.
  const own = check.ok && JSON.stringify(check.payload) !== JSON.stringify(latest?.example ?? {}) ? check.payload : null;
  // The preview follows the typing once it pauses; a settled payload of another event type is not used.
  const settled = useDebounced(JSON.stringify({ eventType, own }));
  const previewPayload = (() => {
    const s = JSON.parse(settled) as { eventType: string | null; own: Record<string, unknown> | null };
    return s.eventType === eventType ? s.own : null;
  })();
  const preview = useExamplePreview(endpointId, eventType, previewPayload, capabilities.sendExample && check.ok);
  const recent = useRecentMessages(eventType);
  const [sent, setSent] = useState<{ msgId: string; endpointId: string } | null>(null);
  const choose = (patch: Record<string, string>) => {
    const q = new URLSearchParams({
      ...(endpointId ? { endpoint: endpointId } : {}),
      ...(eventType ? { eventType } : {}),
      ...patch,
    });
    setSent(null);
    m.sendExample.reset();
    router.replace(`/portal/send?${q}`, { scroll: false });
  };
  const setText = (t: string) => {
    if (!eventType) return;
    setEdit({ eventType, text: t });
    m.sendExample.reset();
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
        description="Pick an event type and an endpoint, edit the payload if you like: you see the exact request Herald will send, then the attempt as it happens. Sample payloads come from the event type's schema, or from a recent real message."
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="min-w-0 space-y-4 rounded-lg border border-slate-200 bg-white p-4">
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
            {unsubscribed && (
              <span className="block text-xs text-amber-800">This endpoint does not subscribe to {eventType}: it gets this sample only because you send it there.</span>
            )}
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
          <Field
            label="Payload"
            hint={
              latest
                ? `Checked against the schema of ${eventType} (version ${latest.version}) as you type.`
                : "This event type has no schema: any JSON object can be sent."
            }
            error={check.ok ? undefined : check.problems.map(describeProblem).join("; ")}
          >
            {({ id, describedBy, invalid }) => (
              <textarea
                id={id}
                name="payload"
                rows={Math.min(18, Math.max(6, text.split("\n").length + 1))}
                spellCheck={false}
                className={`${inputClass} font-mono text-xs`}
                value={text}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onChange={(e) => setText(e.target.value)}
              />
            )}
          </Field>
          {edit && edit.eventType === eventType && text !== exampleText && (
            <Button size="sm" variant="ghost" onClick={() => setEdit(null)}>
              Reset to the example
            </Button>
          )}
          <section aria-labelledby="recent-heading" className="space-y-2">
            <h2 id="recent-heading" className="text-sm font-medium">
              Or use a recent real message
            </h2>
            {recent.isPending && <Spinner label="Loading recent messages" />}
            {recent.error && <ErrorText message={recent.error.message} className="text-xs" />}
            {recent.data && eventType && (
              <RecentMessages eventType={eventType} messages={recent.data.data} onUse={(msg) => setText(pretty(msg.payload))} />
            )}
          </section>
          <Button
            variant="primary"
            className="w-full"
            disabled={!endpointId || !eventType || !check.ok || m.sendExample.isPending}
            onClick={() =>
              endpointId &&
              eventType &&
              check.ok &&
              m.sendExample.mutate(
                { endpointId, eventType, payload: own },
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
          {!check.ok ? (
            <p className="text-sm text-slate-600">Fix the payload to see the request.</p>
          ) : (
            <>
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
            </>
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
