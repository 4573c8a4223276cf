import { Worker } from "bullmq";
import { logger } from "../lib/logger";
import { catalog, onFailedJobs, parseJob, WORKER_DEFAULTS } from "../lib/queue/catalog";
import { createRedis, queuePrefix } from "../lib/queue/connection";
import { summarised } from "../lib/queue/summarise-errors";
import { sendEndpointNotice } from "../lib/notifications/send-endpoint-notice";
import type { Stoppable } from "./index";

// Endpoint alerts by email (lib/notifications/): its own small queue, so a slow SMTP server never
// holds up deliveries or tasks. A failed send is retried by BullMQ (the job's attempts/backoff).

export function startNotificationWorkers(): Stoppable {
  const worker = new Worker(
    catalog["notify.endpoint"].queue,
    async (job) => {
      const data = parseJob("notify.endpoint", job);
      const sent = await sendEndpointNotice(data, (ids) => job.updateData({ ...data, sent: ids }));
      if (sent > 0) logger.info({ endpointId: data.endpointId, kind: data.kind, emails: sent }, "endpoint alert emailed");
    },
    { ...WORKER_DEFAULTS, connection: createRedis("worker"), prefix: queuePrefix(), concurrency: 4 },
  );
  const workerError = summarised("notification worker error");
  worker.on("error", (err) => workerError(err));
  onFailedJobs(worker, "endpoint alert", (job, err) =>
    logger.warn({ err, endpointId: (job?.data as { endpointId?: string } | undefined)?.endpointId, attempt: job?.attemptsMade }, "endpoint alert email failed"),
  );
  return { close: () => worker.close() };
}
