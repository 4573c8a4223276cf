// A tiny structured logger (JSON lines). Level comes from LOG_LEVEL via the caller-free env().
import { env } from "./env";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, "silent">;

function log(level: Level, fields: Record<string, unknown>, msg: string) {
  let threshold: number = LEVELS.info;
  try {
    threshold = LEVELS[env().LOG_LEVEL];
  } catch {
    // Config not loadable: still log errors so the cause is visible.
  }
  if (LEVELS[level] < threshold) return;
  const err = fields.err instanceof Error ? { err: { message: fields.err.message, stack: fields.err.stack } } : {};
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields, ...err });
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(line + "\n");
}

export const logger = {
  debug: (fields: Record<string, unknown>, msg: string) => log("debug", fields, msg),
  info: (fields: Record<string, unknown>, msg: string) => log("info", fields, msg),
  warn: (fields: Record<string, unknown>, msg: string) => log("warn", fields, msg),
  error: (fields: Record<string, unknown>, msg: string) => log("error", fields, msg),
};
