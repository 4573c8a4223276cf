import type { Attempt } from "../generated/prisma/client";
import { MESSAGE_STATUS, attemptStatusText } from "./status";

/** MessageAttemptOut, plus Herald's error class, the Retry-After it honoured and (with content) the exact request sent. */
export function serializeAttempt(a: Attempt, withContent = true) {
  const statusText = attemptStatusText(a.status);
  return {
    id: a.id,
    msgId: a.messageId,
    endpointId: a.endpointId,
    url: a.url,
    timestamp: a.createdAt.toISOString(),
    status: MESSAGE_STATUS[statusText],
    statusText,
    triggerType: a.triggerType === "manual" ? 1 : 0,
    responseStatusCode: a.responseStatus,
    responseDurationMs: a.durationMs,
    response: withContent ? (a.responseBody ?? "") : "",
    errorClass: a.errorClass,
    errorMessage: a.errorMessage,
    retryAfterMs: a.retryAfterMs,
    ...(withContent
      ? {
          request: { headers: a.requestHeaders as Record<string, string>, body: a.requestBody },
          responseHeaders: (a.responseHeaders as Record<string, string> | null) ?? null,
          responseTruncated: a.responseTruncated,
        }
      : {}),
  };
}
