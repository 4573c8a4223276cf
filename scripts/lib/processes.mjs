// How Herald's processes are started by up, the test setup and the e2e server: node itself,
// no npx wrapper in between, so a signal reaches the real process and nothing is orphaned.
import path from "node:path";
import { root } from "./shell.mjs";

/** [command, args] for the web server: server.ts (Next.js behind a fast path for publish). */
export const webCommand = (port, host = "127.0.0.1") => [
  process.execPath,
  ["--import", "tsx", path.join(root, "server.ts"), String(port), host],
];

/** [command, args] for a TypeScript entry point (worker, demo), run through tsx's loader. */
export const tsCommand = (file, args = []) => [process.execPath, ["--import", "tsx", file, ...args]];
