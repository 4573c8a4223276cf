// Starts the test build and a worker for Playwright; exits (stopping both) when Playwright stops it.
import { spawn } from "node:child_process";
import { tsCommand, webCommand } from "../scripts/lib/processes.mjs";

const port = process.argv[2] ?? "3900";
const env = {
  ...process.env,
  PORT: port,
  HERALD_PUBLIC_URL: `http://127.0.0.1:${port}`,
  NODE_ENV: "production",
  // The embedding spec frames the portal from a page on 127.0.0.2 (another site); 127.0.0.3 is
  // left out to prove that an origin not listed is refused.
  HERALD_PORTAL_FRAME_ANCESTORS: "'self' http://127.0.0.2:*",
  // Small, paced task batches so a range replay runs long enough to watch and to cancel.
  HERALD_TASK_BATCH_SIZE: "2",
  HERALD_TASK_BATCH_PAUSE_MS: "250",
  // Several test runs may share this machine: no fixed metrics port.
  HERALD_WORKER_METRICS_PORT: "0",
};
const children = [webCommand(port), tsCommand("worker/index.ts")].map(([cmd, args]) => spawn(cmd, args, { env, stdio: "inherit" }));
const stop = () => {
  for (const c of children) c.kill("SIGTERM");
  setTimeout(() => process.exit(0), 5000).unref();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
for (const c of children) c.on("exit", () => stop());
