import { randomBytes } from "node:crypto";
import { MAX_RESPONSE_BYTES, type AttemptResult, type WebhookClient } from "../delivery/http-client";
import { internalEndpointId } from "../delivery/transports/endpoint-kind";
import { deliverChannel, listenersOnline, RelayedAnswer, replyChannel, type RelayedDelivery } from "./relay";
import { closeHub, publisher, subscribe } from "./relay-connections";

// The last hop of a delivery to a `herald listen` endpoint (herald-listen:<endpoint id>): the
// exact signed headers and body go through Redis to the web process holding the CLI's stream,
// and the CLI's report of the local server's answer comes back the same way. No answer within
// the acknowledgement timeout (the stream dropped, the CLI was stopped, the local server hangs)
// is a timeout, and nobody listening is "refused": both are retried on the schedule like any
// failed attempt.

const newToken = () => randomBytes(12).toString("base64url");

function failure(errorClass: AttemptResult["errorClass"], errorMessage: string, durationMs: number): AttemptResult {
  return { status: 0, headers: null, body: null, truncated: false, durationMs, errorClass, errorMessage };
}

export function createListenTransport(cfg: { requestTimeoutMs: number }): WebhookClient {
  // Answers for this process come on one channel of its own.
  const replyTo = newToken();
  const waiting = new Map<string, { endpointId: string; settle: (a: RelayedAnswer["answer"]) => void }>();
  let listening: Promise<unknown> | null = null;

  function onAnswer(message: string) {
    let parsed: RelayedAnswer;
    try {
      parsed = RelayedAnswer.parse(JSON.parse(message));
    } catch {
      return;
    }
    const w = waiting.get(parsed.requestId);
    // An answer only counts for the endpoint the delivery went to.
    if (w && w.endpointId === parsed.endpointId) w.settle(parsed.answer);
  }

  async function post(url: string, headers: Record<string, string>, body: Buffer): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const endpointId = internalEndpointId(url);
    if (!endpointId) return failure("invalid_url", `not a herald listen endpoint URL: ${url}`, 0);
    const id = newToken();
    // The whole exchange, Redis included, fits in the acknowledgement timeout (like an HTTP
    // attempt), so an attempt never outlives its claim's lease, even while Redis is unreachable.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), cfg.requestTimeoutMs)));
    const timedOut = () => failure("timeout", `no answer from herald listen within ${cfg.requestTimeoutMs} ms`, elapsed());
    try {
      listening ??= subscribe(replyChannel(replyTo), onAnswer).catch((err: unknown) => {
        listening = null;
        throw err;
      });
      if ((await Promise.race([listening.then(() => true), deadline])) === null) return timedOut();
      const online = await Promise.race([listenersOnline(endpointId), deadline]);
      if (online === null) return timedOut();
      if (online === 0) return failure("refused", "no `herald listen` is connected to this endpoint", elapsed());
      const answer = new Promise<RelayedAnswer["answer"]>((resolve) => waiting.set(id, { endpointId, settle: resolve }));
      const delivery: RelayedDelivery = {
        id,
        replyTo,
        headers,
        body: body.toString("utf8"),
        timeoutMs: Math.max(1, cfg.requestTimeoutMs - elapsed()),
      };
      await Promise.race([publisher().publish(deliverChannel(endpointId), JSON.stringify(delivery)), deadline]);
      const a = await Promise.race([answer, deadline]);
      if (!a) return timedOut();
      const truncated = a.truncated || Buffer.byteLength(a.body) > MAX_RESPONSE_BYTES;
      return {
        status: a.status,
        headers: a.status > 0 ? a.headers : null,
        body: a.status > 0 ? Buffer.from(a.body).subarray(0, MAX_RESPONSE_BYTES).toString("utf8") : null,
        truncated,
        // The local server's own time, as the CLI measured it.
        durationMs: a.durationMs,
        errorClass: a.status > 0 ? null : (a.errorClass ?? "network"),
        errorMessage: a.errorMessage ?? null,
      };
    } catch (err) {
      return failure("network", `the herald listen relay failed: ${(err as Error).message}`, elapsed());
    } finally {
      clearTimeout(timer);
      waiting.delete(id);
    }
  }

  return {
    post,
    close: () => {
      closeHub();
      return Promise.resolve();
    },
  };
}
