import { db } from "../db";
import { newId } from "../ids";

// Each environment's operational endpoints live in one internal Application (internal: true),
// which the normal API never shows. It is created on first use.

export async function findOperationalApp(environmentId: string) {
  return db.application.findFirst({ where: { environmentId, internal: true }, orderBy: { id: "asc" } });
}

export async function ensureOperationalApp(environmentId: string) {
  const existing = await findOperationalApp(environmentId);
  if (existing) return existing;
  return db.$transaction(async (tx) => {
    // One creator per environment at a time, so concurrent first uses make a single app.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`herald-operational:${environmentId}`}))`;
    const again = await tx.application.findFirst({ where: { environmentId, internal: true }, orderBy: { id: "asc" } });
    if (again) return again;
    return tx.application.create({
      data: {
        id: newId("application"),
        environmentId,
        name: "Operational webhooks",
        internal: true,
        payloadFormat: "envelope",
      },
    });
  });
}
