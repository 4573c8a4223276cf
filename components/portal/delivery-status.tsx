import { Badge, type Tone } from "../ui/badge";
import { Term } from "../ui/term";

export const DELIVERY_STATUS: Record<string, { label: string; tone: Tone; help: string }> = {
  succeeded: { label: "Succeeded", tone: "green", help: "Your server answered with a 2xx status: delivered." },
  failed: { label: "Failed, retrying", tone: "amber", help: "The last attempt failed; Herald tries again later by itself." },
  pending: { label: "Pending", tone: "blue", help: "Waiting for its first attempt, or the attempt is under way." },
  dead_lettered: { label: "Dead-lettered", tone: "red", help: "Herald stopped trying. Fix your server, then retry it from here or from Failures." },
  canceled: { label: "Canceled", tone: "slate", help: "Stopped before it was delivered; it will not be sent." },
};

/** Why Herald stopped trying (Delivery.deadReason), in words. */
export function deadReasonText(reason: string): { label: string; help: string } {
  if (reason === "exhausted")
    return { label: "All retries failed", help: "Every scheduled attempt failed, so Herald stopped trying." };
  const code = /^http_(\d{3})$/.exec(reason)?.[1];
  if (code === "410")
    return { label: "Your server answered 410 Gone", help: "410 means the endpoint no longer exists, so Herald does not retry it." };
  if (code) return { label: `Your server answered ${code}`, help: `Herald does not retry a ${code} answer: sending the same request again would not change it.` };
  return { label: reason.replace(/_/g, " "), help: "Herald stopped trying this delivery." };
}

export function DeliveryStatusBadge({ status }: { status: string }) {
  const s = DELIVERY_STATUS[status] ?? { label: status, tone: "slate" as const, help: "" };
  const badge = <Badge tone={s.tone}>{s.label}</Badge>;
  return s.help ? <Term explain={s.help}>{badge}</Term> : badge;
}

export function AttemptStatusBadge({ ok }: { ok: boolean }) {
  return <Badge tone={ok ? "green" : "red"}>{ok ? "Success" : "Failed"}</Badge>;
}

const SCHEMES = {
  ed25519: {
    name: "Ed25519 signature",
    tag: "v1a",
    help: "v1a marks an Ed25519 signature in the webhook-signature header. Check it with this endpoint's public key (whpk_…); nobody can forge it with that key.",
  },
  hmac_sha256: {
    name: "HMAC-SHA256 signature",
    tag: "v1",
    help: "v1 marks an HMAC-SHA256 signature in the webhook-signature header. Check it with this endpoint's secret (whsec_…), which only you and Herald know.",
  },
} as const;

/** "Ed25519 signature, v1a" with what v1a/v1 means on hover or focus. */
export function SigningScheme({ signing }: { signing: "ed25519" | "hmac_sha256" }) {
  const s = SCHEMES[signing];
  return (
    <span>
      {s.name},{" "}
      <Term explain={s.help}>
        <code className="font-mono underline decoration-dotted">{s.tag}</code>
      </Term>
    </span>
  );
}
