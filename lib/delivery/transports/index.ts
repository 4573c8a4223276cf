import { createWebhookClient, type WebhookClient, type WebhookClientConfig } from "../http-client";
import { createCaptureTransport } from "../../capture/capture-transport";
import { createListenTransport } from "../../listen/listen-transport";
import { transportKind } from "./endpoint-kind";

// Where an attempt's signed request goes: the last hop, and the only thing that differs between
// kinds of endpoint. Claim, gate, signing, the attempt record and the retry decision are the
// engine's, the same for every kind. The kind is the URL's scheme:
//   http(s)://…           the network, through the SSRF-guarded client (http-client.ts)
//   herald-capture:<ep>   a Herald-hosted test URL: recorded in PostgreSQL, answered as set (lib/capture)
//   herald-listen:<ep>    a `herald listen` CLI, relayed through Redis to whichever web process
//                         holds its stream (lib/listen)
// The API only accepts http(s) endpoint URLs, so only Herald creates the other two, and neither
// goes near the network from the worker: the private-address guard stays on for every URL.

export function createTransport(cfg: WebhookClientConfig): WebhookClient {
  const http = createWebhookClient(cfg);
  const capture = createCaptureTransport({ requestTimeoutMs: cfg.requestTimeoutMs });
  const listen = createListenTransport({ requestTimeoutMs: cfg.requestTimeoutMs });
  return {
    post(url, headers, body) {
      const kind = transportKind(url);
      if (kind === "capture") return capture.post(url, headers, body);
      if (kind === "listen") return listen.post(url, headers, body);
      return http.post(url, headers, body);
    },
    async close() {
      await Promise.all([http.close(), capture.close(), listen.close()]);
    },
  };
}
