import { logger } from "../lib/logger";
import { keyPrefix, redis } from "../lib/queue/connection";
import { every, takeLock } from "../lib/queue/periodic";
import { deleteExpiredCaptures } from "../lib/capture/cleanup-captures";
import type { Stoppable } from "./index";

// Periodic jobs of the integrator tools: expired test URLs are deleted with their endpoint.
const CAPTURE_CLEANUP_MS = 5 * 60_000;

export function startDevToolJobs(): Stoppable {
  const job = every(
    CAPTURE_CLEANUP_MS,
    "expired test URLs",
    async () => {
      if (!(await takeLock(redis(), `${keyPrefix()}:lock:capture-cleanup`, CAPTURE_CLEANUP_MS / 2))) return;
      const deleted = await deleteExpiredCaptures();
      if (deleted > 0) logger.info({ deleted }, "expired test URLs deleted");
    },
    10_000,
  );
  return {
    async close() {
      job.stop();
      await job.idle();
    },
  };
}
