import { Badge } from "../ui/badge";
import { CodeBlock } from "../ui/code-block";
import { formatTime } from "../ui/format";

export type CapturedRequestView = {
  id: string;
  receivedAt: string;
  headers: Record<string, string>;
  body: string;
  answerStatus: number;
  signature: { valid: boolean; matched: "current" | "previous" | null; reason: string | null; ageSeconds: number | null };
};

/** One request a test URL received: what arrived, whether its signature verifies, what it answered. */
export function CapturedRequest({ request, index, retryOf }: { request: CapturedRequestView; index: number; retryOf: number }) {
  const sig = request.signature;
  const headerText = Object.entries(request.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");
  return (
    <li className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" aria-label={`Request ${index}`}>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-mono text-slate-700">POST</span>
        <span className="text-slate-500">{formatTime(request.receivedAt)}</span>
        <span className="font-mono text-xs text-slate-500">{request.headers["webhook-id"]}</span>
        {retryOf > 0 && <Badge tone="purple">Retry {retryOf}</Badge>}
        {sig.valid ? (
          <Badge tone="green" title={`Verified with the endpoint's ${sig.matched} secret, using the standardwebhooks library`}>
            Signature valid
          </Badge>
        ) : (
          <Badge tone="red" title={sig.reason ?? undefined}>
            Signature invalid
          </Badge>
        )}
        {sig.ageSeconds !== null && sig.ageSeconds > 300 && (
          <Badge tone="amber" title="Receivers refuse timestamps more than 5 minutes old">
            Timestamp now {Math.round(sig.ageSeconds / 60)} min old
          </Badge>
        )}
        <Badge tone={request.answerStatus >= 200 && request.answerStatus < 300 ? "green" : "red"}>
          Answered {request.answerStatus === 0 ? "nothing in time" : request.answerStatus}
        </Badge>
      </div>
      {!sig.valid && sig.reason && <p className="text-sm text-red-800">{sig.reason}</p>}
      <CodeBlock title="Headers" code={headerText} copyLabel="Copy headers" maxHeight="16rem" />
      {/* The exact bytes that were signed: a re-indented copy would not verify. */}
      <CodeBlock title="Body (exactly as sent)" code={request.body} copyLabel="Copy body" maxHeight="20rem" />
    </li>
  );
}
