import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client";
import { env } from "./env";
import { pgConnection } from "./pg-connection";

function createClient(): PrismaClient {
  const adapter = new PrismaPg({ ...pgConnection(env().DATABASE_URL), max: 20 });
  return new PrismaClient({ adapter });
}

// One client per process; the globalThis guard keeps Next's dev reloads from opening a pool each.
const globalForDb = globalThis as unknown as { heraldDb?: PrismaClient };

export const db: PrismaClient = globalForDb.heraldDb ?? createClient();
if (env().NODE_ENV !== "production") globalForDb.heraldDb = db;
