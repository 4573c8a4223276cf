import { db } from "../db";
import type { EndpointState } from "../generated/prisma/client";
import { notifyEndpointStateChange } from "../operational/operational-events";
import { changeEndpointNotice } from "../notifications/endpoint-notices";

// Every change of an endpoint's state goes through here, so the health counters are reset
// consistently when it comes back and each transition is announced (endpoint.disabled and
// endpoint.enabled operational webhooks, and the emails to the application's members who asked).

export type StateChange = { endpointId: string; from: EndpointState; to: EndpointState; reason: string | null };

export async function setEndpointState(endpointId: string, to: EndpointState, reason: string | null = null) {
  const current = await db.endpoint.findUnique({ where: { id: endpointId }, select: { state: true } });
  if (!current) return null;
  // Compare-and-set on the state: of two concurrent changes only one notifies.
  const { count } = await db.endpoint.updateMany({
    where: { id: endpointId, state: current.state },
    data: {
      state: to,
      disabledReason: to === "active" ? null : reason,
      stateChangedAt: new Date(),
      ...(to === "active"
        ? { circuitState: "closed", circuitOpenedAt: null, circuitProbeAt: null, consecutiveFailures: 0, failingSince: null }
        : {}),
    },
  });
  const updated = await db.endpoint.findUnique({ where: { id: endpointId } });
  if (count === 1 && current.state !== to) {
    // endpoint.disabled / endpoint.enabled operational webhooks (never throws).
    await notifyEndpointStateChange({ endpointId, from: current.state, to, reason });
    // Members' alerts (never throw): disabled by Herald; enabled again after that.
    if (to === "disabled") await changeEndpointNotice(endpointId, "disabled", reason);
    if (to === "active") await changeEndpointNotice(endpointId, "enabled");
  }
  return updated;
}
