import { Badge, type Tone } from "../ui/badge";

export const DELIVERY_STATUS: Record<string, { label: string; tone: Tone; help: string }> = {
  succeeded: { label: "Succeeded", tone: "green", help: "An attempt got a 2xx answer" },
  failed: { label: "Failed, retrying", tone: "amber", help: "The last attempt failed; another is scheduled" },
  pending: { label: "Pending", tone: "blue", help: "Not attempted yet, or the first attempt is in flight" },
  dead_lettered: { label: "Dead-lettered", tone: "red", help: "Herald gave up: retries exhausted or a non-retryable answer" },
  canceled: { label: "Canceled", tone: "slate", help: "Stopped before it was delivered" },
};

export function DeliveryStatusBadge({ status }: { status: string }) {
  const s = DELIVERY_STATUS[status] ?? { label: status, tone: "slate" as const, help: "" };
  return (
    <Badge tone={s.tone} title={s.help}>
      {s.label}
    </Badge>
  );
}

export function AttemptStatusBadge({ ok }: { ok: boolean }) {
  return <Badge tone={ok ? "green" : "red"}>{ok ? "Success" : "Failed"}</Badge>;
}
