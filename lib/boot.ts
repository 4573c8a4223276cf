import { ConfigError, env } from "./env";
import { logger } from "./logger";
import { processWide } from "./process-wide";

// Process start-up: a bad or missing setting stops the process with its name, instead of
// failing inside the first request. Imported by instrumentation.ts and worker/index.ts.
try {
  env();
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(1);
  }
  throw e;
}

// A promise rejected with nobody listening is logged, not a crash (Node's default): PostgreSQL
// holds Herald's state, so a stray rejection (a store unreachable at a bad moment) must not take
// down a process serving everything else. Errors thrown synchronously still end the process.
processWide("heraldRejectionHandler", () =>
  process.on("unhandledRejection", (reason) => {
    logger.error({ err: reason instanceof Error ? reason : new Error(String(reason)) }, "unhandled promise rejection");
  }),
);
