import { z } from "zod";
import { invalid } from "../http/errors";
import { addressPolicy } from "../services";
import { validateEndpointUrl } from "../ssrf/validate-url";
import { generateWebhookSecret, SECRET_PREFIX, secretProblem } from "../signing/secrets";

// Every request that starts a task may name a `callback_url`: when the task ends, Herald POSTs the
// task to it, signed like a webhook delivery (Standard Webhooks) with `callback_secret` (given, or
// generated and returned once in the 202 answer). The URL passes the same SSRF rules as endpoints.

export const callbackFields = {
  callback_url: z.string().max(2048).nullish(),
  callback_secret: z.string().max(256).nullish(),
};

export type CallbackIn = { callback_url?: string | null; callback_secret?: string | null };

export async function resolveCallback(
  input: CallbackIn,
): Promise<{ callback: { url: string; secret: string } | null; shown: Record<string, string> }> {
  if (!input.callback_url) {
    if (input.callback_secret) throw invalid(["body", "callback_secret"], "is only used together with callback_url");
    return { callback: null, shown: {} };
  }
  const verdict = await validateEndpointUrl(input.callback_url, addressPolicy());
  if (!verdict.ok) throw invalid(["body", "callback_url"], verdict.reason);
  let secret = input.callback_secret ?? generateWebhookSecret();
  if (!secret.startsWith(SECRET_PREFIX)) secret = SECRET_PREFIX + secret;
  const problem = secretProblem(secret);
  if (problem) throw invalid(["body", "callback_secret"], problem);
  return {
    callback: { url: verdict.url.toString(), secret },
    // Shown once, like an endpoint secret, only when Herald generated it.
    shown: input.callback_secret ? {} : { callback_secret: secret },
  };
}
