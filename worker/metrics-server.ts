import { createServer, type Server } from "node:http";
import type { Registry } from "prom-client";
import { logger } from "../lib/logger";

// The worker's Prometheus endpoint: GET /metrics on its own port (HERALD_WORKER_METRICS_PORT).
// A port already in use is reported and skipped: metrics must never stop deliveries.

export async function startMetricsServer(registry: Registry, port: number, host: string): Promise<Server | null> {
  if (port === 0) return null;
  const server = createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": registry.contentType }).end(text),
      (err: unknown) => {
        logger.warn({ err }, "metrics scrape failed");
        res.writeHead(500, { "content-type": "text/plain" }).end("metrics unavailable\n");
      },
    );
  });
  return new Promise((resolve) => {
    server.once("error", (err) => {
      logger.warn({ err, port }, "worker metrics listener could not start; continuing without it");
      resolve(null);
    });
    server.listen(port, host, () => {
      logger.info({ port, host }, "worker metrics at /metrics");
      resolve(server);
    });
  });
}
