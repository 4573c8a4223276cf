import type { Message } from "../generated/prisma/client";

export function serializeMessage(m: Message, withContent = true) {
  return {
    id: m.id,
    eventType: m.eventType,
    eventId: m.eventId,
    channels: m.channels.length > 0 ? m.channels : null,
    payload: withContent ? ((m.payload as Record<string, unknown> | null) ?? {}) : {},
    ...(m.previous && withContent ? { previous: m.previous as Record<string, unknown> } : {}),
    ...(m.replayOfId ? { replayOf: m.replayOfId } : {}),
    timestamp: m.createdAt.toISOString(),
  };
}
export type MessageOut = ReturnType<typeof serializeMessage>;
