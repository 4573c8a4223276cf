import { z } from "zod";
import { keyPrefix } from "../queue/connection";
import { publisher } from "./relay-connections";
import { MAX_RESPONSE_BYTES } from "../delivery/http-client";

// The relay between the worker that holds an attempt to a `herald listen` endpoint and the web
// process that holds the CLI's stream (any of them: the CLI's stream and its answers may reach
// different web processes behind a load balancer). Everything goes through Redis pub/sub:
//
//   worker ── PUBLISH deliver:{ep} ──▶ web process with the stream ── SSE ──▶ herald listen
//   worker ◀── PUBLISH reply:<worker> ── any web process ◀── POST …/answer ── herald listen
//
// A web process holding a stream keeps the stream in the endpoint's presence set (a sorted set
// scored by expiry, refreshed while the stream lives), so a worker can tell "nobody listens"
// (refused at once, retried on the schedule) from "the answer is late" (a timeout).

export const PRESENCE_TTL_MS = 15_000;
export const PRESENCE_REFRESH_MS = 5_000;

const prefix = () => `${keyPrefix()}:listen`;
// Per-endpoint keys carry the endpoint id as hash tag (one Redis Cluster slot per endpoint).
export const presenceKey = (endpointId: string) => `${prefix()}:{${endpointId}}:streams`;
export const deliverChannel = (endpointId: string) => `${prefix()}:{${endpointId}}:deliver`;
export const replyChannel = (replyTo: string) => `${prefix()}:reply:${replyTo}`;

const token = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/** What a worker publishes for one attempt; the stream passes it on to the CLI. */
export const RelayedDelivery = z.object({
  id: token,
  replyTo: token,
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  timeoutMs: z.number().int().positive(),
});
export type RelayedDelivery = z.infer<typeof RelayedDelivery>;

const errorClass = z.enum(["timeout", "connect_timeout", "dns", "refused", "reset", "unreachable", "tls", "invalid_url", "network"]);

/** The CLI's report of what the local server answered (POST …/listen/{ep}/answer). */
export const ListenAnswerIn = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,64}\.[A-Za-z0-9_-]{8,64}$/, "must be the id of a delivery the stream sent"),
    status: z.number().int().min(0).max(999).describe("The local server's HTTP status; 0 when it did not answer"),
    headers: z.record(z.string(), z.string()).default({}),
    body: z.string().max(4 * MAX_RESPONSE_BYTES).default(""),
    truncated: z.boolean().default(false),
    durationMs: z.number().int().min(0).max(3_600_000),
    errorClass: errorClass.nullish(),
    errorMessage: z.string().max(2_000).nullish(),
  })
  .refine((a) => a.status > 0 || a.errorClass, { message: "a status of 0 needs an errorClass", path: ["errorClass"] });
export type ListenAnswerIn = z.infer<typeof ListenAnswerIn>;

/** What a web process publishes back to the worker that waits for the answer. */
export const RelayedAnswer = z.object({
  requestId: token,
  endpointId: z.string(),
  answer: z.object({
    status: z.number(),
    headers: z.record(z.string(), z.string()),
    body: z.string(),
    truncated: z.boolean(),
    durationMs: z.number(),
    errorClass: errorClass.nullish(),
    errorMessage: z.string().nullish(),
  }),
});
export type RelayedAnswer = z.infer<typeof RelayedAnswer>;

/** Streams currently open for the endpoint, on any web process. */
export async function listenersOnline(endpointId: string): Promise<number> {
  return publisher().zcount(presenceKey(endpointId), Date.now(), "+inf");
}

/** Puts one stream in the endpoint's presence set and keeps it there; returns how to take it out. */
export async function holdPresence(endpointId: string, streamId: string): Promise<() => Promise<void>> {
  const key = presenceKey(endpointId);
  const refresh = async () => {
    const now = Date.now();
    await publisher()
      .multi()
      .zadd(key, now + PRESENCE_TTL_MS, streamId)
      .zremrangebyscore(key, "-inf", now)
      .pexpire(key, PRESENCE_TTL_MS * 2)
      .exec();
  };
  await refresh();
  const timer = setInterval(() => void refresh().catch(() => undefined), PRESENCE_REFRESH_MS);
  return async () => {
    clearInterval(timer);
    await publisher().zrem(key, streamId).catch(() => undefined);
  };
}
