import type { Endpoint } from "../generated/prisma/client";

/**
 * Does a message go to this endpoint? Only active endpoints receive. An endpoint without an
 * event-type filter receives every type; one without channels receives every message, and one
 * with channels only messages that carry at least one of them.
 */
export function endpointWants(
  ep: Pick<Endpoint, "state" | "eventTypes" | "channels">,
  msg: { eventType: string; channels: string[] },
): boolean {
  if (ep.state !== "active") return false;
  if (ep.eventTypes.length > 0 && !ep.eventTypes.includes(msg.eventType)) return false;
  if (ep.channels.length > 0 && !msg.channels.some((c) => ep.channels.includes(c))) return false;
  return true;
}
