// Shared pieces for the benchmarks in scripts/bench/: start the built web server and workers
// as real processes, make a tenant, and summarise latencies. Run through `npm run bench`.
import { spawn, type ChildProcess } from "node:child_process";
import { tsCommand, webCommand } from "../lib/processes.mjs";

import { freePort } from "../lib/isolated-run.mjs";
export { freePort };

export type Proc = { child: ChildProcess; stop(signal?: NodeJS.Signals): Promise<void> };

function track(child: ChildProcess): Proc {
  return {
    child,
    stop: (signal = "SIGTERM") =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill(signal);
      }),
  };
}

export async function startWeb(extraEnv: Record<string, string> = {}) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const [cmd, args] = webCommand(port);
  const proc = track(spawn(cmd, args, { env: { ...process.env, PORT: String(port), HERALD_PUBLIC_URL: baseUrl, ...extraEnv }, stdio: ["ignore", "ignore", "inherit"] }));
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${baseUrl}/api/v1/health/ping`)).ok) return { ...proc, baseUrl };
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("web server did not start");
}

export function startWorker(extraEnv: Record<string, string> = {}): Proc {
  const [cmd, args] = tsCommand("worker/index.ts");
  return track(spawn(cmd, args, { env: { ...process.env, ...extraEnv }, stdio: ["ignore", "ignore", "inherit"] }));
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summarize(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p90: percentile(s, 90), p99: percentile(s, 99), max: s[s.length - 1] ?? NaN };
}
