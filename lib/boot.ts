import { ConfigError, env } from "./env";

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
