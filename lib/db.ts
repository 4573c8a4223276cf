import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client";
import { env } from "./env";
import { onIdleClientError, pgConnection } from "./pg-connection";

function createClient(): PrismaClient {
  // The adapter listens for its pool's idle-client errors itself; these say so in the log.
  const adapter = new PrismaPg(
    { ...pgConnection(env().DATABASE_URL), max: 20 },
    { onPoolError: onIdleClientError("prisma"), onConnectionError: onIdleClientError("prisma transaction") },
  );
  return new PrismaClient({ adapter });
}

// One client per process, kept on globalThis: the web process loads lib/ twice (tsx for
// server.ts's direct publish route, Next's bundle for the rest), and Next's dev reloads again.
const globalForDb = globalThis as unknown as { heraldDb?: PrismaClient };

globalForDb.heraldDb ??= createClient();
export const db: PrismaClient = globalForDb.heraldDb;
