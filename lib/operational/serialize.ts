import type { Endpoint } from "../generated/prisma/client";

/** OperationalWebhookEndpointOut, plus Herald's state fields. */
export function serializeOperationalEndpoint(ep: Endpoint) {
  const filterTypes = ep.eventTypes.length > 0 ? ep.eventTypes : null;
  return {
    id: ep.id,
    uid: ep.uid,
    url: ep.url,
    description: ep.description,
    disabled: ep.state !== "active",
    filterTypes,
    metadata: ep.metadata as Record<string, string>,
    rateLimit: ep.throttleRate,
    throttleRate: ep.throttleRate,
    state: ep.state,
    disabledReason: ep.disabledReason,
    circuitState: ep.circuitState,
    createdAt: ep.createdAt.toISOString(),
    updatedAt: ep.updatedAt.toISOString(),
  };
}
