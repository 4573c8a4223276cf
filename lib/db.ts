import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client";
import { env } from "./env";
import { onIdleClientError, pgConnection } from "./pg-connection";
import { processWide } from "./process-wide";

function createClient(): PrismaClient {
  // The adapter listens for its pool's idle-client errors itself; these say so in the log.
  const adapter = new PrismaPg(
    { ...pgConnection(env().DATABASE_URL), max: 20 },
    { onPoolError: onIdleClientError("prisma"), onConnectionError: onIdleClientError("prisma transaction") },
  );
  return new PrismaClient({ adapter });
}

// One client per process, however many copies of lib/ the process loads.
export const db: PrismaClient = processWide("heraldDb", createClient);
