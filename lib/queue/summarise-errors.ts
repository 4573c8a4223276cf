import { logger } from "../logger";

// For errors that come in bursts of the same kind (BullMQ reports some once per job): the log
// shows the first of a burst and how many followed, not every one.

const SUMMARY_MS = 5_000;

/** Logs the first error of a burst, then how many followed, at most once per SUMMARY_MS. */
export function summarised(msg: string): (err: Error) => void {
  let suppressed = 0;
  let last = 0;
  return (err: Error) => {
    const now = Date.now();
    if (now - last < SUMMARY_MS) {
      suppressed++;
      return;
    }
    logger.warn({ err: { message: err.message }, ...(suppressed ? { suppressed } : {}) }, msg);
    suppressed = 0;
    last = now;
  };
}
