import type { Endpoint } from "../generated/prisma/client";
import { nextProbeAt } from "../delivery/circuit-breaker";
import { env } from "../env";

/**
 * EndpointOut, plus Herald's state fields (state, disabledReason, circuit, signing). The next
 * probe is computed with the configured cool-down (HERALD_CIRCUIT_COOLDOWN_MS, which the worker
 * and web processes share).
 */
export function serializeEndpoint(ep: Endpoint, circuitCooldownMs = env().HERALD_CIRCUIT_COOLDOWN_MS) {
  const eventTypes = ep.eventTypes.length > 0 ? ep.eventTypes : null;
  return {
    id: ep.id,
    uid: ep.uid,
    url: ep.url,
    description: ep.description,
    version: ep.version,
    disabled: ep.state !== "active",
    eventTypes,
    filterTypes: eventTypes,
    channels: ep.channels.length > 0 ? ep.channels : null,
    metadata: ep.metadata as Record<string, string>,
    throttleRate: ep.throttleRate,
    rateLimit: ep.throttleRate,
    state: ep.state,
    disabledReason: ep.disabledReason,
    circuitState: ep.circuitState,
    circuitOpenedAt: ep.circuitState === "closed" ? null : (ep.circuitOpenedAt?.toISOString() ?? null),
    circuitNextProbeAt: nextProbeAt(ep, circuitCooldownMs)?.toISOString() ?? null,
    failingSince: ep.failingSince?.toISOString() ?? null,
    consecutiveFailures: ep.consecutiveFailures,
    signing: ep.signingAlgorithm,
    publicKey: ep.publicKey,
    retrySchedule: ep.retrySchedule.length > 0 ? ep.retrySchedule : null,
    createdAt: ep.createdAt.toISOString(),
    updatedAt: ep.updatedAt.toISOString(),
  };
}
export type EndpointOut = ReturnType<typeof serializeEndpoint>;
