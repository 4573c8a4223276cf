import { db } from "../db";
import { newId } from "../ids";

/** The default environment of a single-tenant install: the oldest one, created on first run. */
export async function ensureDefaultEnvironment(name = "default") {
  const existing = await db.environment.findFirst({ orderBy: { id: "asc" } });
  if (existing) return { environment: existing, created: false };
  const environment = await db.environment.create({ data: { id: newId("environment"), name } });
  return { environment, created: true };
}

export async function createEnvironment(name: string) {
  return db.environment.create({ data: { id: newId("environment"), name } });
}
