import type { Scope } from "../auth/principal";
import { findListenEndpoint } from "./ensure-listen-endpoint";
import { publisher } from "./relay-connections";
import { replyChannel, type ListenAnswerIn, type RelayedAnswer } from "./relay";

// POST /api/v1/app/{app}/listen/{ep}/answer: the CLI reports the local server's answer to one
// delivery of the stream. Any web process may take it: it goes to the waiting worker's channel,
// which accepts it only for the endpoint the delivery was sent to. An answer that comes after the
// worker gave up (timeout) reaches nobody; that attempt is already recorded and will be retried.

export async function answerDelivery(scope: Scope, app: string, endpoint: string, input: ListenAnswerIn) {
  const ep = await findListenEndpoint(scope, app, endpoint);
  const [replyTo, requestId] = input.id.split(".") as [string, string];
  const message: RelayedAnswer = {
    requestId,
    endpointId: ep.id,
    answer: {
      status: input.status,
      headers: input.headers,
      body: input.body,
      truncated: input.truncated,
      durationMs: input.durationMs,
      errorClass: input.errorClass ?? null,
      errorMessage: input.errorMessage ?? null,
    },
  };
  await publisher().publish(replyChannel(replyTo), JSON.stringify(message));
}
