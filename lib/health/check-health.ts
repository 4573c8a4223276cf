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

/** The client fails fast while (re)connecting (no offline queue): wait for it, within the probe's timeout. */
async function pingRedis() {
  const client = redis();
  if (client.status !== "ready") await new Promise((resolve) => client.once("ready", resolve));
  return client.ping();
}

export async function checkHealth() {
  const [database, queue] = await Promise.all([probe(() => db.$queryRaw`SELECT 1`), probe(pingRedis)]);
  return { ok: database === "ok" && queue === "ok", database, redis: queue };
}
