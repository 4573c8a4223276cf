import type { ServerResponse } from "node:http";
import type { Api } from "./http";
import { pollUntil } from "./sdk";
import type { Received } from "./receiver";

// Small helpers for the delivery-engine suites: set up an app/event type/endpoint through the
// API, publish, and wait for the database or a receiver to reach a state (bounded polling).

export const EVENT_TYPE = "order.paid";

/** An application with the event type in the catalog; returns the app id. */
export async function makeApp(api: Api, extra: Record<string, unknown> = {}): Promise<string> {
  const et = await api("POST", "/event-type", { name: EVENT_TYPE, description: "An order was paid" });
  if (et.status !== 201 && et.status !== 409) throw new Error(`event type: ${et.status} ${JSON.stringify(et.body)}`);
  const app = await api("POST", "/app", { name: "Delivery tests", ...extra });
  if (app.status !== 201) throw new Error(`app: ${app.status} ${JSON.stringify(app.body)}`);
  return app.body.id as string;
}

/** An endpoint and its signing secret (whsec_, or whpk_ for ed25519). */
export async function makeEndpoint(api: Api, appId: string, body: Record<string, unknown>) {
  const ep = await api("POST", `/app/${appId}/endpoint`, body);
  if (ep.status !== 201) throw new Error(`endpoint: ${ep.status} ${JSON.stringify(ep.body)}`);
  const secret = await api("GET", `/app/${appId}/endpoint/${ep.body.id}/secret`);
  return { id: ep.body.id as string, secret: secret.body.key as string };
}

export async function publish(
  api: Api,
  appId: string,
  payload: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  const res = await api("POST", `/app/${appId}/msg`, { eventType: EVENT_TYPE, payload, ...extra });
  if (res.status !== 202) throw new Error(`publish: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** Polls `read` until `done`, failing with `what` when it does not happen within the time. */
export async function waitUntil<T>(
  what: string,
  read: () => Promise<T>,
  done: (v: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const v = await pollUntil(read, done, timeoutMs);
  if (!done(v))
    throw new Error(
      `timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(v)?.slice(0, 500)}`,
    );
  return v;
}

/** Headers as the Svix / Standard Webhooks libraries expect them. */
export function signatureHeaders(r: Received) {
  return {
    "webhook-id": r.headers["webhook-id"]!,
    "webhook-timestamp": r.headers["webhook-timestamp"]!,
    "webhook-signature": r.headers["webhook-signature"]!,
    "svix-id": r.headers["svix-id"]!,
    "svix-timestamp": r.headers["svix-timestamp"]!,
    "svix-signature": r.headers["svix-signature"]!,
  };
}

/** A responder that answers from a list of statuses in turn (the last one repeats). */
export function answers(...statuses: (number | [number, Record<string, string>])[]) {
  let i = 0;
  return (_r: Received, res: ServerResponse) => {
    const a = statuses[Math.min(i++, statuses.length - 1)]!;
    const [status, headers] = Array.isArray(a) ? a : [a, {}];
    res.writeHead(status, headers).end(`answer ${status}`);
  };
}
