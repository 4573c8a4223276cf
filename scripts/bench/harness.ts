// Shared pieces for the benchmarks in scripts/bench/: start the built web server and workers
// as real processes, make a tenant, and summarise latencies. Run through `npm run bench`.
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
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

/** BENCH_CPU_PROF=<dir>: each process writes a V8 CPU profile there when it exits. */
function profiled(args: string[]): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? ["--cpu-prof", `--cpu-prof-dir=${dir}`, ...args] : args;
}

/**
 * A process's name and CPU times from /proc/<pid>/stat (proc(5)): user, system, and its reaped
 * children's user and system, in milliseconds (clock ticks of 10 ms). Null when it is gone.
 */
function procStat(pid: number | string): { comm: string; ms: [number, number, number, number] } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the name (which may hold spaces and parentheses): [0] is field 3, so
    // [11]-[14] are fields 14-17, utime, stime, cutime and cstime.
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ms = [11, 12, 13, 14].map((k) => Number(f[k]) * 10) as [number, number, number, number];
    return { comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), ms };
  } catch {
    return null;
  }
}

/** CPU milliseconds used so far by a process (user + system), from /proc. */
export function cpuMs(pid: number | undefined): number {
  const stat = pid ? procStat(pid) : null;
  return stat ? stat.ms[0] + stat.ms[1] : NaN;
}

/**
 * CPU milliseconds used so far by every process named `comm` (e.g. "postgres": the server and all
 * its backends), counting their reaped children too, so a backend that exits meanwhile still
 * counts (its time moves to the postmaster's). On a quiet machine that is the bench's share;
 * other clients of the same server count too.
 */
export function cpuMsOfAll(comm: string): number {
  let total = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = procStat(pid);
    if (stat?.comm === comm) total += stat.ms[0] + stat.ms[1] + stat.ms[2] + stat.ms[3];
  }
  return total;
}

/** Waits until a process has used less than `budgetMs` of CPU in a second (start-up is over). */
export async function settled(pid: number | undefined, budgetMs = 60, maxWaitMs = 60_000): Promise<void> {
  const until = Date.now() + maxWaitMs;
  let before = cpuMs(pid);
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 1_000));
    const now = cpuMs(pid);
    if (!(now - before > budgetMs)) return;
    before = now;
  }
}

/** Writes a run's figures for scripts/bench.mjs (name -> number, in table order). */
export function reportFigures(figures: Record<string, number>): void {
  const file = process.env.BENCH_RESULT_FILE;
  if (file) writeFileSync(file, JSON.stringify(figures));
}

export async function startWeb(extraEnv: Record<string, string> = {}) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const [cmd, bare] = webCommand(port);
  const args = profiled(bare);
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
  const [cmd, bare] = tsCommand("worker/index.ts");
  const args = profiled(bare);
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
