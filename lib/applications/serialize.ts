import type { Application } from "../generated/prisma/client";

export function serializeApplication(app: Application) {
  return {
    id: app.id,
    uid: app.uid,
    name: app.name,
    metadata: app.metadata as Record<string, string>,
    throttleRate: app.throttleRate,
    rateLimit: app.throttleRate,
    payloadFormat: app.payloadFormat,
    createdAt: app.createdAt.toISOString(),
    updatedAt: app.updatedAt.toISOString(),
  };
}
export type ApplicationOut = ReturnType<typeof serializeApplication>;
