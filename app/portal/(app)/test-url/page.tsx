"use client";
import Link from "next/link";
import { useState } from "react";
import { LoadError } from "@/components/portal/live-status";
import { CapturedRequest } from "@/components/portal/captured-request";
import { PageHeader } from "@/components/portal/page-header";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { inputClass } from "@/components/ui/field";
import { formatTime } from "@/components/ui/format";
import { EmptyState, ErrorText, Spinner } from "@/components/ui/notice";
import { useCapture, useCaptureMutations, useCaptures, type CaptureDetail } from "../../_lib/dev-tools";
import { useCatalog, useEndpointSecret, usePortal } from "../../_lib/queries";

const ANSWERS = [
  { value: "ok", label: "200 OK" },
  { value: "error", label: "500 error" },
  { value: "slow", label: "Slow (no answer in time)" },
] as const;

function CapturePanel({ capture }: { capture: CaptureDetail }) {
  const { capabilities } = usePortal();
  const m = useCaptureMutations();
  const catalog = useCatalog();
  const [eventType, setEventType] = useState("");
  const [showSecret, setShowSecret] = useState(false);
  // The choice shows at once; the server's answer follows with the next refresh.
  const [answer, setAnswer] = useState(capture.answer);
  const secret = useEndpointSecret(capture.endpointId, showSecret);
  const types = (catalog.data?.data ?? []).filter((t) => !t.archived);
  const chosen = eventType || types[0]?.name || "";
  // The n-th time a message id arrives is its (n-1)-th retry.
  const seen = new Map<string, number>();
  const retries = [...capture.requests].reverse().map((r) => {
    const id = r.headers["webhook-id"] ?? r.id;
    const n = seen.get(id) ?? 0;
    seen.set(id, n + 1);
    return n;
  });
  retries.reverse();

  return (
    <section aria-label="Test URL" className="space-y-5">
      <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-sm text-slate-800">{capture.endpoint.url}</span>
          <CopyButton text={capture.endpointId} label="Copy endpoint id" what="endpoint id" />
          <Badge tone="slate">Expires {formatTime(capture.expiresAt)}</Badge>
        </div>
        <p className="text-sm text-slate-600">
          An endpoint Herald hosts for you: deliveries to it are signed, retried and logged exactly like those to your own
          server (see them in the{" "}
          <Link className="text-blue-800 hover:underline" href={`/portal/logs?endpoint=${capture.endpointId}`}>
            delivery log
          </Link>
          ), and every request it receives is shown below as it arrives.
        </p>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <Button size="sm" variant="ghost" onClick={() => setShowSecret((v) => !v)}>
            {showSecret ? "Hide signing secret" : "Show signing secret"}
          </Button>
          {showSecret && secret.data && <span className="font-mono text-xs">{secret.data.key}</span>}
        </div>
        <fieldset className="flex flex-wrap items-center gap-3 text-sm">
          <legend className="mb-1 font-medium text-slate-800">It answers</legend>
          {ANSWERS.map((a) => (
            <label key={a.value} className="inline-flex items-center gap-1.5">
              <input
                type="radio"
                name="answer"
                value={a.value}
                checked={answer === a.value}
                disabled={!capabilities.write}
                onChange={() => {
                  setAnswer(a.value);
                  m.setAnswer.mutate({ endpointId: capture.endpointId, answer: a.value });
                }}
              />
              {a.label}
            </label>
          ))}
        </fieldset>
        {capabilities.sendExample && (
          <div className="flex flex-wrap items-center gap-2">
            <select aria-label="Event type to send" className={`${inputClass} max-w-xs`} value={chosen} onChange={(e) => setEventType(e.target.value)}>
              {types.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.name}
                </option>
              ))}
            </select>
            <Button
              variant="primary"
              disabled={!chosen || m.sendSample.isPending}
              onClick={() => m.sendSample.mutate({ endpointId: capture.endpointId, eventType: chosen })}
            >
              Send a sample
            </Button>
            {m.sendSample.data && <span className="text-sm text-slate-600">Sent {m.sendSample.data.id}</span>}
          </div>
        )}
        <ErrorText message={m.sendSample.error?.message ?? m.setAnswer.error?.message ?? m.remove.error?.message} />
        {capabilities.write && (
          <Button size="sm" variant="danger" onClick={() => m.remove.mutate(capture.endpointId)} disabled={m.remove.isPending}>
            Delete this test URL
          </Button>
        )}
      </div>
      <h2 className="text-base font-semibold text-slate-900">Requests received ({capture.requests.length})</h2>
      {capture.requests.length === 0 ? (
        <EmptyState title="Nothing received yet">Send a sample, or publish an event it subscribes to.</EmptyState>
      ) : (
        <ul className="space-y-3" aria-label="Requests received" aria-live="polite">
          {capture.requests.map((r, i) => (
            <CapturedRequest key={r.id} request={r} index={capture.requests.length - i} retryOf={retries[i] ?? 0} />
          ))}
        </ul>
      )}
    </section>
  );
}

export default function TestUrlPage() {
  const { capabilities } = usePortal();
  const captures = useCaptures();
  const m = useCaptureMutations();
  const [selected, setSelected] = useState<string | null>(null);
  const list = captures.data?.data ?? [];
  const current = selected && list.some((c) => c.endpointId === selected) ? selected : (list[0]?.endpointId ?? null);
  const detail = useCapture(current);
  return (
    <>
      <PageHeader
        title="Test URL"
        description="See a real delivery before you have a server: a Herald-hosted URL records every request it receives, with its headers, body and signature check. Developing locally? Run herald listen (see the integration guide) to forward deliveries to your machine."
        actions={
          capabilities.write && (
            <Button variant="primary" onClick={() => m.create.mutate()} disabled={m.create.isPending}>
              Create a test URL
            </Button>
          )
        }
      />
      <ErrorText message={m.create.error?.message} />
      {captures.isPending && <Spinner label="Loading test URLs" />}
      <LoadError title="Could not load your test URLs" error={captures.error} onRetry={() => void captures.refetch()} />
      {captures.data && list.length === 0 && (
        <EmptyState title="No test URL yet">Create one: it lasts 72 hours, and you can have three at a time.</EmptyState>
      )}
      {list.length > 1 && (
        <div className="mb-4 flex flex-wrap gap-2" role="group" aria-label="Test URLs">
          {list.map((c) => (
            <Button key={c.endpointId} size="sm" variant={c.endpointId === current ? "primary" : "secondary"} onClick={() => setSelected(c.endpointId)}>
              {c.endpointId.slice(0, 12)}… ({c.requestCount})
            </Button>
          ))}
        </div>
      )}
      {detail.data && <CapturePanel key={detail.data.endpointId} capture={detail.data} />}
    </>
  );
}
