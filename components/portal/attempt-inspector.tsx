"use client";
import { useState } from "react";
import type { DeliveryTimeline } from "@/lib/portal/delivery-timeline";
import { Button } from "../ui/button";
import { CodeBlock } from "../ui/code-block";
import { Dialog } from "../ui/dialog";
import { formatTime, prettyBody, statusCodeLabel } from "../ui/format";
import { Term } from "../ui/term";
import { AttemptStatusBadge, DeliveryStatusBadge, deadReasonText } from "./delivery-status";
import { WaitReasonText } from "./wait-reason";

type Attempt = DeliveryTimeline["attempts"][number];

// The delivery engine's error classes (lib/delivery/http-client.ts), in words.
const ERROR_CLASSES: Record<string, string> = {
  timeout: "Your server did not answer in time",
  connect_timeout: "The connection could not be opened in time",
  dns: "The host name did not resolve",
  refused: "The connection was refused",
  reset: "The connection was reset",
  unreachable: "The network or host is unreachable",
  tls: "The TLS handshake failed (certificate or protocol)",
  ssrf_blocked: "The address is not allowed (private or internal network)",
  invalid_url: "The URL cannot be requested",
  network: "A network error",
};

function HeaderTable({ headers, label }: { headers: Record<string, string> | null | undefined; label: string }) {
  const entries = Object.entries(headers ?? {}).sort(([a], [b]) => {
    const rank = (k: string) => (k.startsWith("webhook-") ? 0 : k.startsWith("svix-") ? 1 : 2);
    return rank(a) - rank(b) || a.localeCompare(b);
  });
  if (entries.length === 0) return <p className="text-sm text-slate-500">No headers recorded.</p>;
  return (
    <table className="w-full text-left text-xs" aria-label={label}>
      <tbody className="divide-y divide-slate-100">
        {entries.map(([k, v]) => (
          <tr key={k}>
            <th scope="row" className="whitespace-nowrap py-1 pr-3 align-top font-mono font-medium text-slate-700">
              {k}
            </th>
            <td className="break-all py-1 font-mono text-slate-900">{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function AttemptDetail({ attempt }: { attempt: Attempt }) {
  const ok = attempt.status === 0;
  const requestBody = prettyBody(attempt.request?.body ?? null);
  const responseBody = prettyBody(attempt.response);
  return (
    <div className="space-y-4">
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-slate-500">Result</dt>
          <dd>
            <AttemptStatusBadge ok={ok} />
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Response status</dt>
          <dd className="font-medium tabular-nums">{statusCodeLabel(attempt.responseStatusCode)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Duration</dt>
          <dd className="tabular-nums">{attempt.responseDurationMs} ms</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Trigger</dt>
          <dd>{attempt.triggerType === 1 ? "Manual (retry)" : "Scheduled"}</dd>
        </div>
      </dl>
      {attempt.errorClass && (
        <p className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          <span className="font-mono font-semibold">{attempt.errorClass}</span>: {ERROR_CLASSES[attempt.errorClass] ?? "Delivery error"}
          {attempt.errorMessage ? ` — ${attempt.errorMessage}` : ""}
        </p>
      )}
      <section aria-label="Request" className="space-y-2">
        <h4 className="text-sm font-semibold">
          Request <span className="font-normal text-slate-500">POST</span> <span className="break-all font-mono text-xs font-normal">{attempt.url}</span>
        </h4>
        <HeaderTable headers={attempt.request?.headers} label="Request headers" />
        {requestBody ? <CodeBlock title="Request body" code={requestBody} maxHeight="18rem" /> : <p className="text-sm text-slate-500">Body no longer stored (expunged).</p>}
      </section>
      <section aria-label="Response" className="space-y-2">
        <h4 className="text-sm font-semibold">Response {statusCodeLabel(attempt.responseStatusCode)}</h4>
        <HeaderTable headers={attempt.responseHeaders} label="Response headers" />
        {responseBody ? (
          <CodeBlock title={attempt.responseTruncated ? "Response body (truncated)" : "Response body"} code={responseBody} maxHeight="18rem" />
        ) : (
          <p className="text-sm text-slate-500">Empty response body.</p>
        )}
      </section>
    </div>
  );
}

/**
 * The attempt inspector: a delivery with the timeline of all its attempts, each with the exact
 * request and response, and the two recovery actions named for what they do.
 */
export type InspectorNotice = { tone: "ok" | "error"; text: string; messageId?: string; retry?: boolean };

export function AttemptInspector({
  timeline,
  canRetry,
  canReplay,
  onRetry,
  onReplay,
  retrying,
  replaying,
  notice,
  onOpenMessage,
}: {
  timeline: DeliveryTimeline;
  canRetry: boolean;
  canReplay: boolean;
  onRetry: () => void;
  onReplay: (toEveryEndpoint: boolean) => void;
  retrying: boolean;
  replaying: boolean;
  /** retry: the "Retry queued" line, which the retried attempt's own line replaces once it arrives. */
  notice?: InspectorNotice | null;
  onOpenMessage: (msgId: string) => void;
}) {
  const attempts = timeline.attempts;
  const [selected, setSelected] = useState<string | null>(null);
  const [replayAll, setReplayAll] = useState(false);
  const [confirmReplay, setConfirmReplay] = useState(false);
  // After Retry: how many attempts there were, so the first one after them is shown (selected and
  // marked new) as soon as it arrives, instead of the attempt the reader had open before.
  const [retriedAfter, setRetriedAfter] = useState<number | null>(null);
  const arrived = retriedAfter !== null ? attempts[retriedAfter] : undefined;
  const current = attempts.find((a) => a.id === selected) ?? arrived ?? attempts[attempts.length - 1];
  const arrivedNumber = arrived ? attempts.indexOf(arrived) + 1 : 0;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1 text-sm">
          <p>
            <DeliveryStatusBadge status={timeline.status} /> <span className="font-mono text-xs">{timeline.message.eventType}</span>
          </p>
          <p className="font-mono text-xs text-slate-600">
            webhook-id {timeline.message.id}
            {timeline.message.eventId ? ` · event id ${timeline.message.eventId}` : ""}
          </p>
          <p className="break-all font-mono text-xs text-slate-600">→ {timeline.endpoint.url}</p>
          {timeline.deadReason && (
            <p className="text-xs text-red-800">
              Herald stopped trying:{" "}
              <Term explain={deadReasonText(timeline.deadReason).help}>
                <span className="underline decoration-dotted">{deadReasonText(timeline.deadReason).label}</span>
              </Term>
            </p>
          )}
          {timeline.waiting && (
            <p className="text-xs text-slate-700" data-testid="wait-reason">
              <WaitReasonText reason={timeline.waiting} />
            </p>
          )}
          {"replayOf" in timeline.message && timeline.message.replayOf && (
            <p className="text-xs text-purple-800">
              Replay of{" "}
              <button type="button" className="font-mono underline" onClick={() => onOpenMessage(timeline.message.replayOf!)}>
                {timeline.message.replayOf}
              </button>
            </p>
          )}
          {timeline.replays.length > 0 && (
            <p className="text-xs text-purple-800">
              Replayed as{" "}
              {timeline.replays.map((r, i) => (
                <span key={r.id}>
                  {i > 0 && ", "}
                  <button type="button" className="font-mono underline" onClick={() => onOpenMessage(r.id)}>
                    {r.id}
                  </button>
                </span>
              ))}
            </p>
          )}
        </div>
      </div>

      {(canRetry || canReplay) && (
        <div className="grid gap-3 md:grid-cols-2">
          {canRetry && (
            <div className="rounded-md border border-slate-200 p-3">
              <Button
                onClick={() => {
                  setSelected(null);
                  setRetriedAfter(attempts.length);
                  onRetry();
                }}
                disabled={retrying}
              >
                {retrying ? "Retrying…" : "Retry"}
              </Button>
              <p className="mt-2 text-xs text-slate-600">
                <strong>Retry</strong> makes a new attempt of this same delivery: same message, same <code>webhook-id</code>, so your
                deduplication treats it as the same event.
              </p>
            </div>
          )}
          {canReplay && (
            <div className="rounded-md border border-slate-200 p-3">
              <Button onClick={() => setConfirmReplay(true)} disabled={replaying}>
                {replaying ? "Replaying…" : "Replay"}
              </Button>
              <label className="ml-3 inline-flex items-center gap-1.5 text-xs text-slate-700">
                <input type="checkbox" checked={replayAll} onChange={(e) => setReplayAll(e.target.checked)} />
                to every subscribed endpoint
              </label>
              <p className="mt-2 text-xs text-slate-600">
                <strong>Replay</strong> ingests the original message again as a <em>new</em> message: a new id and <code>webhook-id</code>,
                linked to this one, delivered {replayAll ? "to every endpoint subscribed to it" : "to this endpoint"}.
              </p>
            </div>
          )}
        </div>
      )}
      <Dialog
        open={confirmReplay}
        onClose={() => setConfirmReplay(false)}
        title="Replay this message?"
        footer={
          <>
            <Button onClick={() => setConfirmReplay(false)}>Cancel</Button>
            <Button
              variant="primary"
              onClick={() => {
                setConfirmReplay(false);
                onReplay(replayAll);
              }}
            >
              {replayAll ? "Replay to every subscribed endpoint" : "Replay to this endpoint"}
            </Button>
          </>
        }
      >
        <div className="space-y-3 text-sm">
          <p>
            Herald will send this <span className="font-mono">{timeline.message.eventType}</span> event again as a{" "}
            <strong>new message</strong>, with a new id and <code>webhook-id</code>, linked to{" "}
            <span className="font-mono">{timeline.message.id}</span>, to:
          </p>
          {replayAll ? (
            <p className="font-medium">every active endpoint subscribed to {timeline.message.eventType}, this one included.</p>
          ) : (
            <p className="break-all font-mono text-xs">{timeline.endpoint.url}</p>
          )}
          <p className="text-slate-600">
            The receiving server sees a new event: its deduplication on <code>webhook-id</code> will not catch it. To repeat the same
            event instead, use Retry.
          </p>
        </div>
      </Dialog>
      {arrived && (
        <p role="status" className="text-sm text-green-800">
          Attempt #{arrivedNumber} arrived: {statusCodeLabel(arrived.responseStatusCode)}. It is shown below.
        </p>
      )}
      {notice && !(notice.retry && arrived) && (
        <p role={notice.tone === "error" ? "alert" : "status"} className={`text-sm ${notice.tone === "error" ? "text-red-700" : "text-green-800"}`}>
          {notice.text}{" "}
          {notice.messageId && (
            <button type="button" className="font-mono underline" onClick={() => onOpenMessage(notice.messageId!)}>
              {notice.messageId}
            </button>
          )}
        </p>
      )}

      <section aria-labelledby="timeline-heading">
        <h3 id="timeline-heading" className="mb-2 text-sm font-semibold">
          Attempts ({attempts.length})
        </h3>
        {attempts.length === 0 ? (
          <p className="text-sm text-slate-500">No attempt yet: this delivery is waiting for its first try.</p>
        ) : (
          <ol className="flex flex-wrap gap-2" aria-label="Attempt timeline">
            {attempts.map((a, i) => {
              const isCurrent = a.id === current?.id;
              return (
                <li key={a.id}>
                  <button
                    type="button"
                    aria-pressed={isCurrent}
                    onClick={() => {
                      setSelected(a.id);
                      setRetriedAfter(null);
                    }}
                    className={`rounded-md border px-3 py-1.5 text-left text-xs focus-visible:outline-2 focus-visible:outline-blue-600 ${
                      isCurrent ? "border-blue-700 bg-blue-50" : "border-slate-200 bg-white hover:bg-slate-50"
                    }`}
                  >
                    <span className="font-medium">#{i + 1}</span>{" "}
                    {a.id === arrived?.id && <span className="rounded bg-green-100 px-1 font-medium text-green-900">new</span>}{" "}
                    <span className={a.status === 0 ? "text-green-800" : "text-red-800"}>{statusCodeLabel(a.responseStatusCode)}</span>
                    {/* slate-500 on the selected blue-50 was 4.4:1, under WCAG AA's 4.5:1. */}
                    <span className={`block ${isCurrent ? "text-slate-800" : "text-slate-600"}`}>{formatTime(a.timestamp)}</span>
                  </button>
                </li>
              );
            })}
          </ol>
        )}
      </section>
      {current && <AttemptDetail attempt={current} />}
    </div>
  );
}
