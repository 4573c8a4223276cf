import { randomBytes } from "node:crypto";
import type { Scope } from "../auth/principal";
import { logger } from "../logger";
import { findListenEndpoint } from "./ensure-listen-endpoint";
import { deliverChannel, holdPresence, RelayedDelivery } from "./relay";
import { subscribe } from "./relay-connections";

// GET /api/v1/app/{app}/listen/{ep}: the `herald listen` CLI's outbound stream (Server-Sent
// Events, so it works from behind NAT and proxies). `ready` once the stream is registered, then a
// `delivery` per attempt with the exact signed headers and body; comment lines keep it alive. A
// stream ends after MAX_STREAM_MS (the CLI reconnects, which also re-checks its authorisation).

export const KEEPALIVE_MS = 15_000;
export const MAX_STREAM_MS = 10 * 60_000;

export async function listenStream(scope: Scope, app: string, endpoint: string, signal: AbortSignal): Promise<Response> {
  const ep = await findListenEndpoint(scope, app, endpoint); // 404/409 before any stream starts
  const encoder = new TextEncoder();
  const streamId = randomBytes(9).toString("base64url");
  let cleanup: (() => Promise<void>) | null = null;

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const unsubscribe = await subscribe(deliverChannel(ep.id), (message) => {
        try {
          const d = RelayedDelivery.parse(JSON.parse(message));
          const out = { id: `${d.replyTo}.${d.id}`, headers: d.headers, body: d.body, timeoutMs: d.timeoutMs };
          send(`event: delivery\ndata: ${JSON.stringify(out)}\n\n`);
        } catch (err) {
          logger.warn({ err }, "dropped a malformed listen relay message");
        }
      });
      let release: () => Promise<void>;
      try {
        release = await holdPresence(ep.id, streamId);
      } catch (err) {
        await unsubscribe();
        logger.warn({ err }, "could not register a herald listen stream");
        controller.error(err);
        return;
      }
      const keepAlive = setInterval(() => send(": keep-alive\n\n"), KEEPALIVE_MS);
      const end = () => void cleanup?.();
      const maxAge = setTimeout(end, MAX_STREAM_MS);
      cleanup = async () => {
        if (closed) return;
        closed = true;
        clearInterval(keepAlive);
        clearTimeout(maxAge);
        signal.removeEventListener("abort", end);
        await Promise.all([unsubscribe(), release()]);
        try {
          controller.close();
        } catch {
          /* already cancelled by the client */
        }
      };
      signal.addEventListener("abort", end);
      send(`retry: 1000\n\nevent: ready\ndata: ${JSON.stringify({ endpointId: ep.id, streamId })}\n\n`);
    },
    async cancel() {
      await cleanup?.();
    },
  });

  return new Response(stream, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
      connection: "keep-alive",
    },
  });
}
