// The worker process: BullMQ consumers for deliveries, tasks and endpoint alerts, plus their periodic jobs.
// Start: `npm run worker` (npm run up starts it for you). It never runs inside the web process,
// so the two scale separately. SIGTERM/SIGINT: stop taking jobs, drain in-flight work, exit.
import "../lib/boot";
import { logger } from "../lib/logger";
import { queuePrefix } from "../lib/queue/connection";
import { startDeliveryWorkers } from "./deliveries";
import { startTaskWorkers } from "./tasks";
import { startDevToolJobs } from "./dev-tools";
import { startNotificationWorkers } from "./notifications";

export type Stoppable = { close(): Promise<void> };

const parts: Stoppable[] = [await startDeliveryWorkers(), await startTaskWorkers(), startDevToolJobs(), startNotificationWorkers()];
logger.info({ prefix: queuePrefix(), pid: process.pid }, "worker started");

// A daemon: stay up until told to stop, even while no consumer holds a connection open.
const keepAlive = setInterval(() => undefined, 60_000);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "worker draining");
  await Promise.allSettled(parts.map((p) => p.close()));
  clearInterval(keepAlive);
  logger.info({}, "worker stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
