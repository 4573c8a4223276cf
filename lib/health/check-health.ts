import { db } from "../db";
import { redis } from "../queue/connection";

const CHECK_TIMEOUT_MS = 2_000;

async function probe(fn: () => Promise<unknown>): Promise<"ok" | "error"> {
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), CHECK_TIMEOUT_MS).unref()),
    ]);
    return "ok";
  } catch {
    return "error";
  }
}

export async function checkHealth() {
  const [database, queue] = await Promise.all([probe(() => db.$queryRaw`SELECT 1`), probe(() => redis().ping())]);
  return { ok: database === "ok" && queue === "ok", database, redis: queue };
}
