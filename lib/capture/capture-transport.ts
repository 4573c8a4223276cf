import { setTimeout as sleep } from "node:timers/promises";
import { db } from "../db";
import { newId } from "../ids";
import { isSensitiveHeader } from "../endpoints/custom-headers";
import type { AttemptResult, WebhookClient } from "../delivery/http-client";
import { internalEndpointId } from "../delivery/transports/endpoint-kind";
import { CAPTURE_LIMITS } from "./limits";

// The last hop of a delivery to a test URL (herald-capture:<endpoint id>): what the engine would
// have put on the wire is stored as a CaptureRequest, and the answer is the one the portal set:
// ok (200), error (500) or slow (no answer within the acknowledgement timeout, like a receiver
// that takes too long). The engine records the attempt and decides retries exactly as for any
// endpoint. Nothing goes to the network.

const ANSWERS = {
  ok: { status: 200, body: '{"received":true}' },
  error: { status: 500, body: '{"error":"this test URL is set to answer 500"}' },
} as const;

function failure(errorClass: AttemptResult["errorClass"], errorMessage: string, durationMs: number): AttemptResult {
  return { status: 0, headers: null, body: null, truncated: false, durationMs, errorClass, errorMessage };
}

export function createCaptureTransport(cfg: { requestTimeoutMs: number }): WebhookClient {
  // Like the HTTP client, this never throws: a failure is an attempt result (and is retried).
  async function post(url: string, headers: Record<string, string>, body: Buffer): Promise<AttemptResult> {
    const started = performance.now();
    try {
      return await receive(url, headers, body, started);
    } catch (err) {
      return failure("network", `the test URL could not record the request: ${(err as Error).message}`, Math.round(performance.now() - started));
    }
  }

  async function receive(url: string, headers: Record<string, string>, body: Buffer, started: number): Promise<AttemptResult> {
    const elapsed = () => Math.round(performance.now() - started);
    const endpointId = internalEndpointId(url);
    const inbox = endpointId ? await db.captureInbox.findUnique({ where: { endpointId } }) : null;
    if (!inbox || inbox.expiresAt <= new Date())
      return failure("refused", "this test URL does not exist or has expired", elapsed());

    const stored: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) stored[name] = isSensitiveHeader(name) ? "[redacted]" : value;
    const answer = inbox.answer === "slow" ? null : ANSWERS[inbox.answer];
    await db.captureRequest.create({
      data: {
        id: newId("captureRequest"),
        endpointId: inbox.endpointId,
        applicationId: inbox.applicationId,
        headers: stored,
        body: body.toString("utf8"),
        answerStatus: answer?.status ?? 0,
      },
    });
    await trim(inbox.endpointId);

    if (!answer) {
      await sleep(cfg.requestTimeoutMs);
      return failure("timeout", `no response within ${cfg.requestTimeoutMs} ms (this test URL is set to answer slowly)`, elapsed());
    }
    return {
      status: answer.status,
      headers: { "content-type": "application/json" },
      body: answer.body,
      truncated: false,
      durationMs: elapsed(),
      errorClass: null,
      errorMessage: null,
    };
  }

  return { post, close: () => Promise.resolve() };
}

/** Keeps the newest CAPTURE_LIMITS.requestsKept requests of a test URL (bounded storage). */
async function trim(endpointId: string) {
  const oldestKept = await db.captureRequest.findFirst({
    where: { endpointId },
    orderBy: { id: "desc" },
    skip: CAPTURE_LIMITS.requestsKept - 1,
    select: { id: true },
  });
  if (oldestKept) await db.captureRequest.deleteMany({ where: { endpointId, id: { lt: oldestKept.id } } });
}
