import type { Message } from "../generated/prisma/client";

/** What the API answers for a message (its application is in the path, not the answer). */
export type MessageFields = Pick<Message, "id" | "eventType" | "eventId" | "channels" | "payload" | "previous" | "replayOfId" | "createdAt">;

export function serializeMessage(m: MessageFields, withContent = true) {
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
