// Starts the test build and a worker for Playwright; exits (stopping both) when Playwright stops it.
import { spawn } from "node:child_process";
import { tsCommand, webCommand } from "../scripts/lib/processes.mjs";

const port = process.argv[2] ?? "3900";
const env = { ...process.env, PORT: port, HERALD_PUBLIC_URL: `http://127.0.0.1:${port}`, NODE_ENV: "production" };
const children = [webCommand(port), tsCommand("worker/index.ts")].map(([cmd, args]) => spawn(cmd, args, { env, stdio: "inherit" }));
const stop = () => {
  for (const c of children) c.kill("SIGTERM");
  setTimeout(() => process.exit(0), 5000).unref();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
for (const c of children) c.on("exit", () => stop());
