import type { ChildProcess, SpawnOptions } from "node:child_process";

export type Supervisor = {
  start(name: string, cmd: string, args: string[], extraEnv?: Record<string, string>): ChildProcess;
  stop(graceMs?: number): Promise<unknown>;
  current(name: string): ChildProcess | null;
  readonly stopping: boolean;
};

export function createSupervisor(opts?: {
  spawnOptions?: SpawnOptions;
  log?: (line: string) => void;
  minMs?: number;
  maxMs?: number;
  healthyAfterMs?: number;
}): Supervisor;
