import { timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";

// The portal's "signature valid?" for a captured request, computed with the reference Standard
// Webhooks library (the one integrators use), not with Herald's own signer, against each secret
// the endpoint signs with now. The timestamp is reported, not judged: a receiver's 5-minute
// tolerance says whether it would still accept the request now.

export type SignatureCheck = {
  valid: boolean;
  /** Which key matched: the current secret, or the previous one during its rotation window. */
  matched: "current" | "previous" | null;
  reason: string | null;
  /** Seconds between webhook-timestamp and now (receivers refuse more than 300). */
  ageSeconds: number | null;
};

export function checkSignature(headers: Record<string, string>, body: string, secrets: string[], now = Date.now()): SignatureCheck {
  const id = headers["webhook-id"];
  const ts = headers["webhook-timestamp"];
  const sig = headers["webhook-signature"];
  if (!id || !ts || !sig) return { valid: false, matched: null, reason: "webhook-id, webhook-timestamp or webhook-signature is missing", ageSeconds: null };
  const seconds = Number(ts);
  if (!Number.isInteger(seconds)) return { valid: false, matched: null, reason: "webhook-timestamp is not a Unix time", ageSeconds: null };
  const ageSeconds = Math.round(now / 1000 - seconds);
  const given = sig.split(" ").filter((s) => s.startsWith("v1,"));
  for (const [i, secret] of secrets.entries()) {
    const expected = Buffer.from(new Webhook(secret).sign(id, new Date(seconds * 1000), body));
    if (given.some((g) => g.length === expected.length && timingSafeEqual(Buffer.from(g), expected)))
      return { valid: true, matched: i === 0 ? "current" : "previous", reason: null, ageSeconds };
  }
  return { valid: false, matched: null, reason: "no v1 signature matches the endpoint's secret", ageSeconds };
}
