import { db } from "../db";
import type { EndpointNotice } from "../generated/prisma/client";
import { logger } from "../logger";
import { enqueue } from "../queue/catalog";

// Telling an application's members (who opted in) that one of its endpoints started failing, was
// disabled, recovered or was enabled again: out of band, because the webhook channel is the one
// that is broken. No detection of its own: the delivery engine's endpoint health calls this
// (lib/delivery/after-attempt.ts: circuit opened or message.attempt.failing sent, a success while
// failing) and so do endpoint state changes (lib/endpoints/set-endpoint-state.ts, beside the
// endpoint.disabled / endpoint.enabled operational webhooks).
//
// endpoint.notice_state is what the members were last told. Each change is a compare-and-set on
// it, so however many attempts and worker processes see the same outage, exactly one of them
// wins and enqueues the email job: one email per member per change, never a storm.

export type NoticeKind = "failing" | "disabled" | "recovered" | "enabled";

const CHANGES: Record<NoticeKind, { from: EndpointNotice[]; to: EndpointNotice }> = {
  failing: { from: ["ok"], to: "failing" },
  recovered: { from: ["failing"], to: "ok" },
  disabled: { from: ["ok", "failing"], to: "disabled" },
  enabled: { from: ["disabled"], to: "ok" },
};

/** Attempts of an SMTP send before the notice is given up (BullMQ retries, exponential). */
export const NOTICE_MAIL_ATTEMPTS = 5;
const NOTICE_MAIL_BACKOFF_MS = 5_000;

/**
 * Moves the endpoint's notice state for `kind`; true (and the email job enqueued) only for the
 * caller whose change applied. Never throws: a notice must not fail the delivery path.
 */
export async function changeEndpointNotice(endpointId: string, kind: NoticeKind, reason: string | null = null): Promise<boolean> {
  const { from, to } = CHANGES[kind];
  const at = new Date();
  try {
    const { count } = await db.endpoint.updateMany({
      // A paused or disabled endpoint is not "failing": its own state says more.
      where: { id: endpointId, noticeState: { in: from }, ...(kind === "failing" ? { state: "active" } : {}) },
      data: { noticeState: to, noticeChangedAt: at },
    });
    if (count !== 1) return false;
    await enqueue("notify.endpoint", [
      {
        data: { endpointId, kind, at: at.toISOString(), reason },
        opts: { attempts: NOTICE_MAIL_ATTEMPTS, backoff: { type: "exponential", delay: NOTICE_MAIL_BACKOFF_MS } },
      },
    ]);
    return true;
  } catch (err) {
    // The state may have moved without its email (Redis unreachable): at most once, never twice.
    logger.warn({ err, endpointId, kind }, "could not record or enqueue an endpoint notice");
    return false;
  }
}
