import { Agent } from "undici";
import type { AddressPolicy } from "../ssrf/ip-policy";
import { DnsError, guardedConnector, SsrfBlockedError } from "../ssrf/guarded-connect";

// The HTTP side of an attempt: one POST through a keep-alive agent whose every socket passes the
// SSRF guard. Redirects are never followed (a 3xx is an answer like any other). The response body
// is read while streaming and cut at MAX_RESPONSE_BYTES: a gigabyte answer costs 64 KiB of memory
// and the connection is dropped. The whole exchange (connect, send, response headers) must finish
// within the acknowledgement timeout.

export const MAX_RESPONSE_BYTES = 64 * 1024;
const KEEP_ALIVE_MS = 4_000;

export type ErrorClass =
  | "timeout"
  | "connect_timeout"
  | "dns"
  | "refused"
  | "reset"
  | "unreachable"
  | "tls"
  | "ssrf_blocked"
  | "invalid_url"
  | "network";

export type AttemptResult = {
  /** HTTP status, or 0 when no answer arrived. */
  status: number;
  headers: Record<string, string> | null;
  body: string | null;
  truncated: boolean;
  durationMs: number;
  errorClass: ErrorClass | null;
  errorMessage: string | null;
};

export type WebhookClientConfig = {
  policy: AddressPolicy;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
};

export type WebhookClient = {
  post(url: string, headers: Record<string, string>, body: Buffer): Promise<AttemptResult>;
  close(): Promise<void>;
};

export function createWebhookClient(cfg: WebhookClientConfig): WebhookClient {
  const agent = new Agent({
    connect: guardedConnector({ policy: cfg.policy, connectTimeoutMs: cfg.connectTimeoutMs }),
    keepAliveTimeout: KEEP_ALIVE_MS,
    keepAliveMaxTimeout: 10 * KEEP_ALIVE_MS,
    // Unlimited sockets per origin: the per-endpoint in-flight cap bounds concurrency, and two
    // endpoints on one host must not queue behind each other's sockets.
    connections: null,
    pipelining: 1,
    headersTimeout: cfg.requestTimeoutMs,
    bodyTimeout: cfg.requestTimeoutMs,
  });

  async function post(rawUrl: string, headers: Record<string, string>, body: Buffer): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(rawUrl);
      if (url.protocol !== "http:" && url.protocol !== "https:")
        throw new Error(`unsupported protocol ${url.protocol}`);
    } catch (e) {
      return failure("invalid_url", `invalid endpoint URL: ${(e as Error).message}`, 0);
    }
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, cfg.requestTimeoutMs);
    try {
      const res = await agent.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: "POST",
        headers,
        body,
        signal: controller.signal,
      });
      const { text, truncated, error } = await readCapped(res.body, MAX_RESPONSE_BYTES);
      return {
        status: res.statusCode,
        headers: flattenHeaders(res.headers),
        body: text,
        truncated,
        durationMs: elapsed(),
        errorClass: null,
        errorMessage: error ? `response body incomplete: ${error}` : null,
      };
    } catch (e) {
      const [cls, message] = timedOut
        ? (["timeout", `no response within ${cfg.requestTimeoutMs} ms`] as const)
        : describeError(e);
      return failure(cls, message, elapsed());
    } finally {
      clearTimeout(timer);
    }
  }

  return { post, close: () => agent.close() };
}

function failure(errorClass: ErrorClass, errorMessage: string, durationMs: number): AttemptResult {
  return { status: 0, headers: null, body: null, truncated: false, durationMs, errorClass, errorMessage };
}

async function readCapped(stream: AsyncIterable<Buffer> & { destroy(): void }, max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  let error: string | null = null;
  try {
    for await (const chunk of stream) {
      const room = max - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size = max;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (e) {
    error = (e as Error).message;
  } finally {
    // Leaving the loop early (or failing) drops the connection instead of draining the rest.
    if (truncated || error) stream.destroy();
  }
  return { text: Buffer.concat(chunks, size).toString("utf8"), truncated, error };
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_OSSL_|HOSTNAME_MISMATCH)/;

/** The error class of a failed exchange, from the error or its cause. */
export function describeError(e: unknown): [ErrorClass, string] {
  const err = e as NodeJS.ErrnoException & { cause?: unknown };
  if (err instanceof SsrfBlockedError) return ["ssrf_blocked", err.message];
  if (err instanceof DnsError) return ["dns", err.message];
  const code = err.code ?? "";
  const cause = err.cause as NodeJS.ErrnoException | undefined;
  const causeCode = cause?.code ?? "";
  const message = err.message + (cause?.message && cause.message !== err.message ? ` (${cause.message})` : "");
  const any = (re: RegExp | string[]) =>
    Array.isArray(re) ? re.includes(code) || re.includes(causeCode) : re.test(code) || re.test(causeCode);
  if (any(["UND_ERR_CONNECT_TIMEOUT"])) return ["connect_timeout", message];
  if (any(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"])) return ["timeout", message];
  if (any(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA"])) return ["dns", message];
  if (any(["ECONNREFUSED"])) return ["refused", message];
  if (any(["EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"])) return ["unreachable", message];
  if (any(TLS_CODE) || /certificate|SSL|TLS/i.test(message)) return ["tls", message];
  if (any(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"])) return ["reset", message];
  return ["network", message || "request failed"];
}
