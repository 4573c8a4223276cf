import type { PayloadFormat } from "../generated/prisma/client";
import { isReservedHeader, isSensitiveHeader } from "../endpoints/custom-headers";
import { signWebhook } from "../signing/sign";

// What goes on the wire for one attempt. The body is serialised once into a Buffer; that Buffer
// is signed and sent as is.

export const USER_AGENT = "Herald-Webhooks/1.0";
export const ENVELOPE_VERSION = 1;

export type MessageForBody = {
  id: string;
  eventType: string;
  payload: unknown;
  previous: unknown;
  createdAt: Date;
};

/**
 * envelope (default): {"id","type","timestamp","version","data"} plus "previous" when the
 * publisher supplied old values. raw: the published payload itself (Svix's format).
 */
export function buildBody(msg: MessageForBody, format: PayloadFormat): Buffer {
  if (format === "raw") return Buffer.from(JSON.stringify(msg.payload ?? {}), "utf8");
  const envelope: Record<string, unknown> = {
    id: msg.id,
    type: msg.eventType,
    timestamp: msg.createdAt.toISOString(),
    version: ENVELOPE_VERSION,
    data: msg.payload ?? {},
  };
  if (msg.previous !== null && msg.previous !== undefined) envelope.previous = msg.previous;
  return Buffer.from(JSON.stringify(envelope), "utf8");
}

export type BuiltRequest = {
  /** Sent on the wire. */
  headers: Record<string, string>;
  /** Stored with the attempt: the same, except credential-like custom header values. */
  recorded: Record<string, string>;
};

export function buildHeaders(input: {
  messageId: string;
  body: Buffer;
  keys: string[];
  customHeaders: Record<string, string>;
  timestamp?: number;
}): BuiltRequest {
  const custom: Record<string, string> = {};
  const recordedCustom: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.customHeaders)) {
    // The API refuses these; rows written before a name was reserved are filtered here.
    if (isReservedHeader(name)) continue;
    const key = name.toLowerCase();
    custom[key] = value;
    recordedCustom[key] = isSensitiveHeader(name) ? "[redacted]" : value;
  }
  const own = {
    "content-type": "application/json",
    "content-length": String(input.body.length),
    "user-agent": USER_AGENT,
    ...signWebhook({
      id: input.messageId,
      body: input.body,
      secrets: input.keys,
      ...(input.timestamp !== undefined ? { timestamp: input.timestamp } : {}),
    }),
  };
  return { headers: { ...custom, ...own }, recorded: { ...recordedCustom, ...own } };
}
