#!/usr/bin/env node
// node scripts/with-env.mjs <command> [args…] — runs a command with .env loaded (the process
// environment wins), for package scripts like `npm run worker` and `npm run api-key`.
import { spawn } from "node:child_process";
import { readDotEnv, root } from "./lib/shell.mjs";

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error("usage: node scripts/with-env.mjs <command> [args…]");
  process.exit(2);
}
const child = spawn(cmd, args, { cwd: root, stdio: "inherit", env: { ...readDotEnv(), ...process.env } });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
