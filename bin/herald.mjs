#!/usr/bin/env node
// herald — Herald's command line for integrators. Node.js 20+, no dependencies, one file: Herald
// also serves it at /cli/herald.mjs, so `curl -O $HERALD_URL/cli/herald.mjs` is the install.
//
//   herald listen --url <herald> --token <portal link or token> --forward-to <local url>
//                 [--events a,b] [--channel c] [--name <endpoint uid>]
//   herald listen --url <herald> --api-key <operator key> --app <app id or uid> --forward-to …
//
// `listen` creates (or reuses) a development endpoint of the application, prints its id and
// signing secret, opens an outbound stream to Herald (Server-Sent Events: works from behind NAT),
// POSTs each delivery to the local URL with the exact signed headers and body, and reports the
// local answer back, so the attempt is recorded with it (a local 500 is retried as usual).
import http from "node:http";
import https from "node:https";
import { parseArgs } from "node:util";

const USAGE = `Usage:
  herald listen --url <herald url> --token <portal link or hpt_ token> --forward-to <local url>
                [--events a,b] [--channel <channel>] [--name <endpoint uid>]
  herald listen --url <herald url> --api-key <operator key> --app <app id or uid> --forward-to <local url> …

Options:
  --url          Herald's address, e.g. https://herald.example.com (or HERALD_URL)
  --token        a portal link (https://…/portal#key=hpt_…) or its hpt_ token, as your provider gives it
  --api-key      an operator API key instead of a token (or HERALD_API_KEY); needs --app
  --app          the application, with --api-key
  --forward-to   where to POST each delivery, e.g. http://localhost:4000/webhooks
  --events       only these event types (comma-separated); default: all
  --channel      only messages of this channel
  --name         the endpoint's uid (default herald-listen): one development endpoint per name`;

/** The local server's answer is kept up to this size, like Herald's own HTTP client. */
const MAX_BODY_BYTES = 64 * 1024;
/** No byte (not even a keep-alive comment, every 15 s) for this long: the stream is dead. */
const STREAM_SILENCE_MS = 45_000;
const BACKOFF_MS = [500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000];
/** Hop-by-hop headers the local request gets from its own connection, not from Herald's. */
const NOT_FORWARDED = new Set(["host", "content-length", "connection", "transfer-encoding", "keep-alive", "expect", "te", "upgrade", "trailer"]);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const out = (line) => process.stdout.write(`${line}\n`);
const warn = (line) => process.stderr.write(`${line}\n`);

function fail(message) {
  warn(`herald: ${message}`);
  process.exit(1);
}

class HttpError extends Error {
  constructor(status, code, detail) {
    super(`${status} ${code}: ${detail}`);
    this.status = status;
    this.code = code;
  }
}

async function readError(res) {
  let body = {};
  try {
    body = await res.json();
  } catch {
    /* not JSON */
  }
  const detail = Array.isArray(body.detail)
    ? body.detail.map((d) => `${(d.loc ?? []).join(".")}: ${d.msg}`).join("; ")
    : (body.detail ?? res.statusText);
  return new HttpError(res.status, body.code ?? `http_${res.status}`, detail);
}

/** Who we are to Herald: an operator key, or a portal session renewed from the link's token. */
function createAuth(base, opts) {
  if (opts.apiKey) {
    if (!opts.app) fail("--api-key needs --app <app id or uid>");
    return { appId: () => opts.app, header: async () => `Bearer ${opts.apiKey}`, renew: async () => false };
  }
  let token = opts.token;
  const hash = token.indexOf("#");
  if (hash >= 0) token = new URLSearchParams(token.slice(hash + 1)).get("key") ?? "";
  if (!token) fail("--token must be a portal link (…#key=hpt_…) or its hpt_ token");
  let session = null;
  const open = async () => {
    const res = await fetch(`${base}/api/v1/auth/portal-session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token }),
    });
    if (!res.ok) throw await readError(res);
    session = await res.json();
  };
  return {
    appId: () => session.application.id,
    async header() {
      if (!session || new Date(session.expiresAt).getTime() - Date.now() < 60_000) await open();
      return `Bearer ${session.session}`;
    },
    async renew() {
      await open();
      return true;
    },
    start: open,
  };
}

/** JSON request to Herald; a session that expired is renewed once. */
async function call(base, auth, method, path, body) {
  for (let tries = 0; ; tries++) {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: await auth.header(), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status === 401 && tries === 0) {
      const err = await readError(res);
      if (err.code === "portal_session_expired" && (await auth.renew())) continue;
      throw err;
    }
    if (!res.ok) throw await readError(res);
    return res.status === 204 ? null : res.json();
  }
}

/** The error class Herald records for a local request that got no answer. */
function errorClassOf(err) {
  const code = err?.cause?.code ?? err?.code ?? "";
  if (err?.name === "TimeoutError" || err?.name === "AbortError") return "timeout";
  if (code === "ECONNREFUSED") return "refused";
  if (code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET") return "reset";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "dns";
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return "unreachable";
  if (code === "UND_ERR_CONNECT_TIMEOUT") return "connect_timeout";
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED)/.test(code)) return "tls";
  return "network";
}

async function readCapped(res) {
  const chunks = [];
  let size = 0;
  let truncated = false;
  if (res) {
    for await (const chunk of res) {
      const room = MAX_BODY_BYTES - size;
      if (chunk.length > room) {
        chunks.push(Buffer.from(chunk).subarray(0, room));
        size = MAX_BODY_BYTES;
        truncated = true;
        break;
      }
      chunks.push(Buffer.from(chunk));
      size += chunk.length;
    }
  }
  return { body: Buffer.concat(chunks, size).toString("utf8"), truncated };
}

/**
 * POSTs one delivery to the local server exactly as Herald signed it; returns its answer. Through
 * node:http rather than fetch, which adds headers Herald never sends (accept, accept-language,
 * sec-fetch-mode, accept-encoding) and would make the local request differ from production's.
 */
async function forward(target, delivery) {
  const headers = Object.fromEntries(Object.entries(delivery.headers).filter(([k]) => !NOT_FORWARDED.has(k.toLowerCase())));
  headers["content-length"] = String(Buffer.byteLength(delivery.body));
  const started = performance.now();
  const url = new URL(target);
  try {
    const res = await new Promise((resolve, reject) => {
      const req = (url.protocol === "https:" ? https : http).request(url, {
        method: "POST",
        headers,
        // Leave time to report the answer before Herald stops waiting.
        signal: AbortSignal.timeout(Math.max(500, delivery.timeoutMs - 1_000)),
      }, resolve);
      req.on("error", reject);
      req.end(delivery.body);
    });
    const { body, truncated } = await readCapped(res);
    const responseHeaders = {};
    for (const [k, v] of Object.entries(res.headers)) responseHeaders[k] = Array.isArray(v) ? v.join(", ") : String(v);
    return { status: res.statusCode ?? 0, headers: responseHeaders, body, truncated, durationMs: Math.round(performance.now() - started) };
  } catch (err) {
    const errorClass = errorClassOf(err);
    const message = errorClass === "timeout" ? `the local server did not answer within ${delivery.timeoutMs - 1_000} ms` : `${err.cause?.message ?? err.message}`;
    return { status: 0, headers: {}, body: "", truncated: false, durationMs: Math.round(performance.now() - started), errorClass, errorMessage: `local server: ${message}` };
  }
}

function describeDelivery(delivery) {
  let type = "";
  try {
    type = JSON.parse(delivery.body).type ?? "";
  } catch {
    /* a raw payload */
  }
  return `${type || "event"} ${delivery.headers["webhook-id"] ?? ""}`.trim();
}

/** Reads Server-Sent Events from a fetch Response, calling onEvent(name, data) per event. */
async function readEvents(res, onEvent, onBytes) {
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    onBytes();
    buffer += value;
    let cut;
    while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
      let event = "message";
      const data = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length > 0) onEvent(event, data.join("\n"));
    }
  }
}

async function listen(opts) {
  const base = (opts.url ?? process.env.HERALD_URL ?? "").replace(/\/+$/, "");
  if (!base) fail(`--url is required\n\n${USAGE}`);
  if (!opts["forward-to"]) fail(`--forward-to is required\n\n${USAGE}`);
  if (!opts.token && !opts["api-key"] && !process.env.HERALD_API_KEY) fail(`--token or --api-key is required\n\n${USAGE}`);
  let target;
  try {
    target = new URL(opts["forward-to"]).toString();
  } catch {
    fail(`--forward-to is not a URL: ${opts["forward-to"]}`);
  }
  const auth = createAuth(base, { token: opts.token, apiKey: opts["api-key"] ?? (opts.token ? undefined : process.env.HERALD_API_KEY), app: opts.app });
  try {
    await auth.start?.();
  } catch (err) {
    fail(`could not open the portal link at ${base}: ${err.cause?.message ?? err.message}`);
  }
  const app = encodeURIComponent(auth.appId());
  const events = opts.events ? opts.events.split(",").map((s) => s.trim()).filter(Boolean) : null;
  let created;
  try {
    created = await call(base, auth, "POST", `/app/${app}/listen`, {
      ...(opts.name ? { uid: opts.name } : {}),
      filterTypes: events,
      channels: opts.channel ? [opts.channel] : null,
    });
  } catch (err) {
    // fetch says only "fetch failed"; its cause says what (ECONNREFUSED 127.0.0.1:3000).
    fail(`could not create the development endpoint at ${base}: ${err.cause?.message ?? err.message}`);
  }
  const ep = created.endpoint;
  out(`Endpoint: ${ep.id} (uid ${ep.uid}${events ? `, events ${events.join(", ")}` : ", all events"}${opts.channel ? `, channel ${opts.channel}` : ""})`);
  out(`Signing secret: ${created.secret}`);

  let stopping = false;
  let current = null;
  process.on("SIGINT", () => {
    stopping = true;
    current?.abort();
    out(`\nStopped. Nothing was removed: the endpoint ${ep.id} stays, and deliveries to it fail and are retried while nobody listens.`);
    out(`Delete it in the portal (Endpoints) or with:`);
    out(`  curl -X DELETE ${base}/api/v1/app/${app}/endpoint/${ep.id} -H "Authorization: Bearer <your API key or portal session>"`);
    process.exit(0);
  });

  const answer = async (delivery, result) => {
    for (let i = 0; i < 3; i++) {
      try {
        await call(base, auth, "POST", `/app/${app}/listen/${ep.id}/answer`, { id: delivery.id, ...result });
        return;
      } catch (err) {
        if (err instanceof HttpError && err.status < 500) return warn(`  could not report the answer: ${err.message}`);
        await sleep(250 * (i + 1));
      }
    }
    warn("  could not report the answer to Herald; it records a timeout and retries the delivery");
  };

  const handle = async (delivery) => {
    const result = await forward(target, delivery);
    const what = describeDelivery(delivery);
    out(result.status > 0 ? `→ ${what}  ${result.status} in ${result.durationMs} ms` : `→ ${what}  no answer (${result.errorClass}: ${result.errorMessage})`);
    await answer(delivery, result);
  };

  let failures = 0;
  let everReady = false;
  while (!stopping) {
    const controller = new AbortController();
    current = controller;
    let silence;
    const touch = () => {
      clearTimeout(silence);
      silence = setTimeout(() => controller.abort(new Error("no data from the stream for 45 s")), STREAM_SILENCE_MS);
    };
    try {
      const res = await fetch(`${base}/api/v1/app/${app}/listen/${ep.id}`, {
        headers: { authorization: await auth.header(), accept: "text/event-stream" },
        signal: controller.signal,
      });
      if (res.status === 401) {
        const err = await readError(res);
        if (err.code === "portal_session_expired" && (await auth.renew())) continue;
        throw err;
      }
      if (res.status === 404 || res.status === 409) fail(`the endpoint ${ep.id} is gone (${(await readError(res)).message})`);
      if (!res.ok) throw await readError(res);
      touch();
      await readEvents(
        res,
        (event, data) => {
          if (event === "ready") {
            failures = 0;
            out(`${everReady ? "Reconnected" : "Ready"}: forwarding to ${target} (Ctrl-C to stop)`);
            everReady = true;
          } else if (event === "delivery") void handle(JSON.parse(data));
        },
        touch,
      );
      if (!stopping) warn("Stream ended; reconnecting");
      await sleep(BACKOFF_MS[0]);
    } catch (err) {
      if (stopping) break;
      const wait = BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)];
      failures++;
      warn(`Stream lost (${err.cause?.message ?? err.message}); reconnecting in ${wait / 1000} s`);
      await sleep(wait);
    } finally {
      clearTimeout(silence);
    }
  }
}

const [command, ...rest] = process.argv.slice(2);
if (command !== "listen") {
  out(USAGE);
  process.exit(command === "--help" || command === "-h" || command === undefined ? 0 : 1);
}
let parsed;
try {
  parsed = parseArgs({
    args: rest,
    options: {
      url: { type: "string" },
      token: { type: "string" },
      "api-key": { type: "string" },
      app: { type: "string" },
      "forward-to": { type: "string" },
      events: { type: "string" },
      channel: { type: "string" },
      name: { type: "string" },
    },
  }).values;
} catch (err) {
  fail(`${err.message}\n\n${USAGE}`);
}
await listen(parsed);
