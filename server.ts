// The web process: Next.js (the API, the portal) behind a plain Node http server, so that the
// hottest route — publishing a message — skips the framework's per-request work. That path runs
// the very same route handler (auth, validation, idempotency, errors) as under Next.js; it is
// only dispatched directly, which takes publish from about 5 ms to under 2 ms of CPU per request
// (npm run bench -- publish). Everything else goes to Next.js unchanged.
//
// Start: `npm start` (npm run up does it for you): node --import tsx server.ts [port] [host]
import "./lib/boot";
import { createServer } from "node:http";
import next from "next";
import { env } from "./lib/env";
import { logger } from "./lib/logger";
import { errorResponse } from "./lib/http/route";
import { sendWebResponse, serveWithHandler } from "./lib/http/node-adapter";
import { stampClientAddress } from "./lib/accounts/client-address";
import { POST as publish } from "./app/api/v1/app/[app_id]/msg/route";

const port = Number(process.argv[2] ?? env().PORT);
const hostname = process.argv[3] ?? "0.0.0.0";

// POST /api/v1/app/{app_id}/msg, exactly (Next.js redirects a trailing slash; so do we, by not
// matching it). A path that is not valid percent-encoding goes to Next.js, whose proxy answers 400.
const PUBLISH = /^\/api\/v1\/app\/([^/?#]+)\/msg(?:\?|$)/;

function publishAppId(method: string | undefined, url: string | undefined): string | null {
  if (method !== "POST" || !url) return null;
  const m = PUBLISH.exec(url);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
}

const app = next({ dev: false, dir: import.meta.dirname, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const trustProxy = env().HERALD_TRUST_PROXY;
const server = createServer((req, res) => {
  // The sign-in rate limit's client address, set here so no client can choose it.
  stampClientAddress(req, trustProxy);
  const appId = publishAppId(req.method, req.url);
  if (appId === null) return void handle(req, res);
  serveWithHandler(req, res, publish, { app_id: appId }).catch(async (err: unknown) => {
    // The route renders every error itself; this is a failure to write the answer (client gone).
    if (res.headersSent) return void res.destroy();
    await sendWebResponse(req, res, errorResponse(err)).catch(() => res.destroy());
  });
});
server.keepAliveTimeout = 65_000; // longer than common load balancers' idle timeout
server.listen(port, hostname, () => logger.info({ port, hostname }, "web server ready"));

// SIGTERM/SIGINT: stop accepting, let requests in flight finish (a publish commits, then
// enqueues), then exit; idle keep-alive connections are closed so that this does not wait on them.
let stopping = false;
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "web server stopping");
  server.close(() => void app.close().finally(() => process.exit(0)));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 10_000).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
