import { nullable, ref, type JsonSchema } from "./json-schema";

// Response shapes, as the serializers in lib/*/serialize.ts produce them. Based on the Svix
// server's OpenAPI document (MIT, see svix-server-openapi.LICENSE) with Herald's additions:
// both field generations (eventTypes/filterTypes, throttleRate/rateLimit) and Herald's own
// fields (state, signing, retrySchedule, payloadFormat, ...), marked "Herald extension".

const str: JsonSchema = { type: "string" };
const int: JsonSchema = { type: "integer" };
const bool: JsonSchema = { type: "boolean" };
const dateTime: JsonSchema = { type: "string", format: "date-time" };
const stringMap: JsonSchema = { type: "object", additionalProperties: { type: "string" } };
const anyObject: JsonSchema = { type: "object", additionalProperties: true };
const strings: JsonSchema = { type: "array", items: str };
const ext = (schema: JsonSchema, description: string): JsonSchema => ({ ...schema, description: `Herald extension: ${description}` });

function object(properties: Record<string, JsonSchema>, optional: string[] = [], description?: string): JsonSchema {
  return {
    type: "object",
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
  };
}

const messageStatus: JsonSchema = {
  type: "integer",
  enum: [0, 1, 2, 3, 4],
  description:
    "0 success, 1 pending, 2 fail, 3 sending, 4 canceled (only with expanded_statuses=true; otherwise canceled reads as 2)",
};
const messageStatusText: JsonSchema = { type: "string", enum: ["success", "pending", "fail", "sending", "canceled"] };

const applicationOut = object({
  id: { ...str, description: "app_…", examples: ["app_01jf3k6m8q9r2s4t5v6w7x8y9z"] },
  uid: nullable(str),
  name: str,
  metadata: stringMap,
  throttleRate: nullable({ ...int, description: "Messages per second per endpoint; null for no limit" }),
  rateLimit: nullable({ ...int, description: "Same as throttleRate (the name newer SDKs use)" }),
  payloadFormat: ext({ type: "string", enum: ["envelope", "raw"] }, "what endpoints receive: Herald's envelope (default) or the payload as published (Svix's format)"),
  createdAt: dateTime,
  updatedAt: dateTime,
});

const endpointFields = {
  id: { ...str, description: "ep_…" },
  uid: nullable(str),
  url: { type: "string", format: "uri" },
  description: str,
  version: int,
  disabled: { ...bool, description: "true when the endpoint is not active (paused by its owner or disabled by Herald)" },
  eventTypes: nullable({ ...strings, description: "Event types it receives; null for all" }),
  filterTypes: nullable({ ...strings, description: "Same as eventTypes (the name the 1.x SDKs use)" }),
  channels: nullable(strings),
  metadata: stringMap,
  throttleRate: nullable(int),
  rateLimit: nullable(int),
  state: ext({ type: "string", enum: ["active", "paused", "disabled"] }, "paused = stopped by its owner; disabled = stopped by Herald after persistent failure"),
  disabledReason: ext(nullable(str), "why it is not active"),
  circuitState: ext({ type: "string", enum: ["closed", "open", "half_open"] }, "the circuit breaker"),
  circuitOpenedAt: ext(nullable(dateTime), "when the circuit opened; null while closed"),
  circuitNextProbeAt: ext(
    nullable(dateTime),
    "when the open circuit lets its next probe through (in the past: due now, or under way); null while closed",
  ),
  failingSince: ext(nullable(dateTime), "the first failed attempt of the current run of failures; null once one succeeds"),
  consecutiveFailures: ext(int, "failed attempts in a row; past the circuit's threshold, a later failed attempt (a probe) re-opened it"),
  signing: ext({ type: "string", enum: ["hmac_sha256", "ed25519"] }, "signature scheme (v1 HMAC or v1a Ed25519)"),
  publicKey: ext(nullable(str), "the whpk_ verification key of an ed25519 endpoint"),
  retrySchedule: ext(nullable({ type: "array", items: int }), "seconds between retries; null for the environment's schedule"),
  createdAt: dateTime,
  updatedAt: dateTime,
};

const messageFields = {
  id: { ...str, description: "msg_…; also the webhook-id header of every delivery" },
  eventType: str,
  eventId: nullable(str),
  channels: nullable(strings),
  payload: anyObject,
  previous: ext(anyObject, "old values of the changed fields, when the publisher supplied them"),
  replayOf: ext(str, "set on a message created by a replay: the original message"),
  timestamp: dateTime,
};

const deliveryState = {
  status: messageStatus,
  statusText: messageStatusText,
  nextAttempt: nullable(dateTime),
};

const listOf = (item: string): JsonSchema =>
  object(
    {
      data: { type: "array", items: ref(item) },
      done: { ...bool, description: "No more items in this direction" },
      iterator: nullable({ ...str, description: "Pass as `iterator` for the next page" }),
      prevIterator: nullable({ ...str, description: "Pass as `iterator` for the previous page" }),
    },
    [],
  );

export const schemas: Record<string, JsonSchema> = {
  ApplicationOut: applicationOut,
  ListResponse_ApplicationOut_: listOf("ApplicationOut"),
  EventTypeOut: object({
    name: str,
    description: str,
    archived: bool,
    deprecated: bool,
    featureFlag: nullable(str),
    featureFlags: nullable({ ...strings, description: "The feature flag as a list (the name newer SDKs use)" }),
    schemas: nullable({ type: "object", description: 'JSON Schemas by version: {"1": {...}}', additionalProperties: anyObject }),
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  ListResponse_EventTypeOut_: listOf("EventTypeOut"),
  EndpointOut: object(endpointFields),
  ListResponse_EndpointOut_: listOf("EndpointOut"),
  OperationalEndpointOut: object(
    {
      id: endpointFields.id,
      uid: endpointFields.uid,
      url: endpointFields.url,
      description: endpointFields.description,
      disabled: endpointFields.disabled,
      filterTypes: nullable({ ...strings, description: "Operational event types it receives; null for all" }),
      metadata: stringMap,
      rateLimit: nullable(int),
      throttleRate: nullable(int),
      state: endpointFields.state,
      disabledReason: endpointFields.disabledReason,
      circuitState: endpointFields.circuitState,
      createdAt: dateTime,
      updatedAt: dateTime,
    },
    [],
    "An operational webhook endpoint (Svix's OperationalWebhookEndpointOut, plus Herald's state fields)",
  ),
  ListResponse_OperationalEndpointOut_: listOf("OperationalEndpointOut"),
  EndpointHeadersOut: object({
    headers: { ...stringMap, description: "Custom headers, except sensitive ones" },
    sensitive: { ...strings, description: "Names of headers whose values are never shown (credentials)" },
  }),
  EndpointSecretOut: object({ key: { ...str, description: "whsec_… (HMAC) or the whpk_… public key (ed25519)" } }),
  EndpointStats: object({ success: int, fail: int, pending: int, sending: int, canceled: int }),
  EndpointMetricsOut: object(
    {
      endpointId: str,
      window: { type: "string", enum: ["1h", "24h", "7d"] },
      since: dateTime,
      until: dateTime,
      attempts: int,
      success: int,
      fail: int,
      successRate: nullable({ type: "number", description: "success / attempts; null without attempts in the window" }),
      statusCodes: {
        type: "array",
        description: "Each answer's HTTP status with its count, most frequent first; 0 = no HTTP answer",
        items: object({ code: int, count: int }),
      },
      latencyMs: object(
        { p50: nullable(int), p95: nullable(int) },
        [],
        "Median and 95th percentile of the attempts' durations in ms; null without attempts",
      ),
    },
    [],
    "Herald extension: an endpoint's attempts over the window (each HTTP try counts)",
  ),
  RecoverOut: object({
    id: { ...str, description: "The task id (qtask_…); follow it at GET /api/v1/tasks/{task_id}" },
    status: { type: "string", enum: ["running"] },
    task: { type: "string", enum: ["endpoint.recover"] },
    updatedAt: dateTime,
  }),
  MessageOut: object(messageFields, ["previous", "replayOf"]),
  PublishedMessageOut: {
    allOf: [
      ref("MessageOut"),
      {
        type: "object",
        properties: { warnings: ext(strings, "advice about the message, e.g. a payload over 20 KiB") },
      },
    ],
  },
  ListResponse_MessageOut_: listOf("MessageOut"),
  EndpointMessageOut: object({ ...messageFields, ...deliveryState }, ["previous", "replayOf"]),
  ListResponse_EndpointMessageOut_: listOf("EndpointMessageOut"),
  MessageEndpointOut: object({ ...endpointFields, ...deliveryState }),
  ListResponse_MessageEndpointOut_: listOf("MessageEndpointOut"),
  MessageAttemptOut: object(
    {
      id: { ...str, description: "atmpt_…" },
      msgId: str,
      endpointId: str,
      url: { type: "string", format: "uri" },
      timestamp: dateTime,
      status: messageStatus,
      statusText: messageStatusText,
      triggerType: { type: "integer", enum: [0, 1], description: "0 scheduled, 1 manual (resend)" },
      responseStatusCode: { ...int, description: "0 when no HTTP response arrived" },
      responseDurationMs: int,
      response: { ...str, description: "The response body (truncated); empty without content or once expunged" },
      errorClass: ext(nullable(str), "timeout, dns, refused, reset, tls, ssrf_blocked, redirect, http_status, ..."),
      errorMessage: ext(nullable(str), "what went wrong, in words"),
      retryAfterMs: ext(
        nullable(int),
        "for a 429 or 503 with Retry-After: the delay it asked for (ms, at most 24 h) that the next attempt waited for",
      ),
      request: ext(
        object({ headers: stringMap, body: nullable(str) }),
        "exactly what was sent (credential-like custom header values redacted); with content only",
      ),
      responseHeaders: ext(nullable(stringMap), "with content only"),
      responseTruncated: ext(bool, "with content only"),
      msg: { ...ref("MessageOut"), description: "With with_msg=true: the message, without its payload" },
    },
    ["errorClass", "errorMessage", "retryAfterMs", "request", "responseHeaders", "responseTruncated", "msg"],
  ),
  ListResponse_MessageAttemptOut_: listOf("MessageAttemptOut"),
  AppPortalAccessOut: object({
    url: { type: "string", format: "uri", description: "The portal, with the token in the URL fragment (#key=…)" },
    token: str,
  }),
  PortalSessionOut: object({
    session: { ...str, description: "Send as `Authorization: Bearer <session>` (valid for an hour at most)" },
    expiresAt: dateTime,
    readOnly: bool,
    featureFlags: strings,
    capabilities: ext(anyObject, "what the portal may do: write, secrets, rotateSecret, retry, replay, sendExample, tasks (booleans)"),
    svixCapabilities: ext(
      { type: "array", items: { type: "string", enum: ["ViewBase", "ViewEndpointSecret", "ManageEndpointSecret", "CreateAttempts", "ManageEndpoint"] } },
      "the link's capabilities in Svix's terms: those it was given, or those its read-only setting implies",
    ),
    application: object({ id: str, uid: nullable(str), name: str }),
    member: ext(bool, "opened by an application member from /portal/sign-in (they have email alerts to set), not by a magic link"),
  }),
  EmptyResponse: { type: "object" },
  HealthOut: object({
    status: { type: "string", enum: ["ok", "degraded"] },
    database: { type: "string", enum: ["ok", "error"] },
    redis: { type: "string", enum: ["ok", "error"] },
  }),
  HttpErrorOut: object({ code: str, detail: str }, [], "Every error but validation errors"),
  ValidationErrorItem: object({
    loc: { type: "array", items: { anyOf: [str, int] }, description: 'Where: ["body", "url"], ["query", "limit"], ["path", "app_id"]' },
    msg: str,
    type: str,
  }),
  HTTPValidationError: object({ detail: { type: "array", items: ref("ValidationErrorItem") } }, [], "422: what is wrong with the request"),
  TaskAccepted: object(
    {
      task_id: str,
      status: { type: "string", enum: ["pending", "running", "completed", "failed", "cancelled"] },
      status_url: str,
      events_url: str,
    },
    [],
    "202 answer of a request that started a task; the Location header is the status_url",
  ),
  TaskOut: {
    type: "object",
    description: "An async task (recover, replay, bulk_retry, export): state, progress, counts, ETA, result or error",
    properties: {
      id: str,
      kind: { type: "string", enum: ["recover", "replay", "bulk_retry", "export"] },
      status: { type: "string", enum: ["pending", "running", "completed", "failed", "cancelled"] },
      progress: { ...int, minimum: 0, maximum: 100 },
      done: int,
      total: nullable(int),
      estimated_completion: nullable(dateTime),
      created_at: dateTime,
      started_at: nullable(dateTime),
      completed_at: nullable(dateTime),
      app_id: nullable(str),
      endpoint_id: nullable(str),
      params: anyObject,
      result: nullable(anyObject),
      summary: str,
      result_url: str,
      result_expires_at: dateTime,
      error: object({ code: str, message: str }),
      cancel_requested_at: nullable(dateTime),
      callback_url: nullable(str),
      callback_status: nullable(str),
      status_url: str,
      events_url: str,
    },
    required: ["id", "kind", "status", "progress", "done", "created_at", "summary", "status_url", "events_url"],
  },
  ListResponse_TaskOut_: listOf("TaskOut"),
  ReplayDeliveriesOut: object(
    {
      task_id: str,
      total: { ...int, description: "Deliveries the replay has queued so far" },
      delivered: { ...int, description: "Got a 2xx" },
      failed: { ...int, description: "Dead-lettered" },
      retrying: { ...int, description: "Attempted, failed, another attempt scheduled" },
      sending: { ...int, description: "First attempt under way (or held for a free slot); no longer cancellable" },
      waiting: { ...int, description: "Not attempted yet; a cancel stops these" },
      cancelled: { ...int, description: "Cancelled with the task before they were attempted" },
    },
    [],
    "Where the deliveries of a replay task stand",
  ),
  EnvironmentSettingsOut: object({
    retrySchedule: ext(nullable({ type: "array", items: int }), "the environment's seconds between retries; null for the platform default"),
    effectiveRetrySchedule: ext({ type: "array", items: int }, "what endpoints without their own schedule follow"),
    portalBranding: ext(
      object({
        displayName: nullable(str),
        logoUrl: nullable(str),
        accentColor: { ...nullable(str), description: "#rrggbb" },
        accentTextColor: { ...nullable(str), description: "#ffffff or #000000, whichever contrasts more with the accent" },
        theme: { type: "string", enum: ["light", "dark", "system"] },
      }),
      "the consumer portal's name, logo, accent colour and theme (system follows prefers-color-scheme)",
    ),
    portalEmbedOrigins: ext(
      { type: "array", items: str },
      "origins (scheme://host[:port]) that may frame this environment's portal, besides HERALD_PORTAL_FRAME_ANCESTORS; portal links carry ?env=<environment id> to select them",
    ),
    portalFrameAncestors: ext(str, "the CSP frame-ancestors directive a portal page opened with ?env=<this environment> is sent"),
  }),
  ...consoleComponents(),
  CaptureOut: object(
    {
      endpointId: { ...str, description: "The test URL's endpoint (its url is herald-capture:<endpoint id>)" },
      answer: { type: "string", enum: ["ok", "error", "slow"], description: "ok: 200; error: 500; slow: no answer within the acknowledgement timeout" },
      expiresAt: dateTime,
      createdAt: dateTime,
      requestCount: int,
      endpoint: ref("EndpointOut"),
    },
    [],
    "A Herald-hosted test URL",
  ),
  ListResponse_CaptureOut_: object({ data: { type: "array", items: ref("CaptureOut") } }),
  CaptureDetailOut: {
    allOf: [
      ref("CaptureOut"),
      object({
        requests: {
          type: "array",
          items: object({
            id: { ...str, description: "creq_…" },
            receivedAt: dateTime,
            headers: { ...stringMap, description: "Exactly the headers sent (credential-like custom header values redacted)" },
            body: { ...str, description: "Exactly the body sent" },
            answerStatus: { ...int, description: "What the test URL answered; 0 = no answer in time" },
            signature: object({
              valid: bool,
              matched: nullable({ type: "string", enum: ["current", "previous"] }),
              reason: nullable(str),
              ageSeconds: nullable({ ...int, description: "Seconds since webhook-timestamp; receivers refuse more than 300" }),
            }),
          }),
        },
      }),
    ],
  },
  ListenEndpointOut: object({
    created: bool,
    endpoint: ref("EndpointOut"),
    secret: { ...str, description: "whsec_…: verify the forwarded requests with it" },
    appId: str,
  }),
  MemberInviteOut: object(
    {
      sent: { ...bool, description: "The invitation went out by email (HERALD_SMTP_URL is set)" },
      url: nullable({ ...str, description: "A one-time sign-in link to pass on yourself: only without email, and only for someone who has never signed in" }),
      expiresAt: nullable(dateTime),
      note: nullable(str),
    },
    [],
    "How the invited person comes in",
  ),
  OperatorMemberOut: object({
    userId: { ...str, description: "user_…" },
    email: str,
    name: nullable(str),
    role: { type: "string", enum: ["owner", "admin", "viewer"] },
    createdAt: dateTime,
  }),
  OperatorMemberInvitedOut: {
    allOf: [ref("OperatorMemberOut"), object({ invite: nullable(ref("MemberInviteOut")) }, [], "invite is null when they already were a member who has signed in; a member who never did is sent a new invitation (earlier links stop working)")],
  },
  ListResponse_OperatorMemberOut_: object({ data: { type: "array", items: ref("OperatorMemberOut") } }),
  AppMemberOut: object({
    userId: { ...str, description: "user_…" },
    email: str,
    name: nullable(str),
    role: { type: "string", enum: ["admin", "viewer"], description: "admin: the portal as a writable link gives it; viewer: read-only" },
    appId: str,
    createdAt: dateTime,
  }),
  AppMemberInvitedOut: {
    allOf: [ref("AppMemberOut"), object({ invite: nullable(ref("MemberInviteOut")) }, [], "invite is null when they already were a member who has signed in; a member who never did is sent a new invitation (earlier links stop working)")],
  },
  ListResponse_AppMemberOut_: object({ data: { type: "array", items: ref("AppMemberOut") } }),
  AnyObject: anyObject,
};

/** Standard error responses, referenced by every operation that can produce them. */
export const responses: Record<string, JsonSchema> = {
  BadRequest: errorResponse("Malformed JSON, an empty body where one is required, or a bad idempotency-key"),
  Unauthorized: errorResponse("Missing or invalid API key or portal session"),
  Forbidden: errorResponse("The key or session may not do this (e.g. a read-only portal session writing)"),
  NotFound: errorResponse("No such resource in this environment (or application, for portal sessions)"),
  Conflict: errorResponse("Duplicate uid or eventId, idempotency-key reused with another request, or a task already running"),
  PayloadTooLarge: errorResponse("Request body over 256 KiB"),
  ServiceUnavailable: {
    ...errorResponse("PostgreSQL or Redis is unreachable for a moment (restart, failover): retry after Retry-After seconds"),
    headers: { "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer" } } },
  },
  ValidationError: {
    description: "The request is well-formed JSON but a field is invalid; `loc` says which",
    content: { "application/json": { schema: ref("HTTPValidationError") } },
  },
};

function errorResponse(description: string): JsonSchema {
  return { description, content: { "application/json": { schema: ref("HttpErrorOut") } } };
}

// The environment's overview, application summaries and API keys (Herald extensions the console uses).
function consoleComponents(): Record<string, JsonSchema> {
  const rate = object({
    succeeded: int,
    failed: int,
    successRate: nullable({ type: "number", description: "succeeded / (succeeded + failed); null when none finished" }),
  });
  const counts = { succeeded: int, failed: { ...int, description: "dead (no retries left)" }, pending: int, sending: int, canceled: int };
  const apiKey = {
    id: { ...str, description: "key_…" },
    name: str,
    prefix: { ...str, description: "The key's first characters" },
    createdAt: dateTime,
    lastUsedAt: nullable(dateTime),
    revokedAt: nullable(dateTime),
  };
  return {
    ApplicationSummaryOut: {
      allOf: [
        applicationOut,
        object({
          last24h: ext(rate, "deliveries created in the last 24 h that finished"),
          unfinished: ext(
            object({
              failing: { ...int, description: "retrying after a failed attempt (the portal log's `failed`)" },
              held: { ...int, description: "not tried yet: their active endpoint's circuit is open" },
              capped: {
                type: "boolean",
                description: "the first 10,000 unfinished deliveries were counted: failing and held are lower bounds",
              },
            }),
            "deliveries not finished now, whatever their age",
          ),
        }),
      ],
    },
    ListResponse_ApplicationSummaryOut_: listOf("ApplicationSummaryOut"),
    EnvironmentOverviewOut: object({
      generatedAt: dateTime,
      lastHour: object({ ...counts, total: int, successRate: nullable({ type: "number" }) }),
      lastDay: object({ ...counts, total: int, successRate: nullable({ type: "number" }) }),
      hours: { type: "array", items: object({ start: dateTime, ...counts }), description: "24 hours, oldest first" },
      waiting: { ...int, description: "Deliveries pending or being sent" },
      deadLetters: { ...int, description: "Deliveries that failed for good (retained)" },
      runningTasks: { ...int, description: "Tasks pending or running" },
      topFailing: {
        type: "array",
        items: object({
          endpointId: str,
          url: str,
          state: { type: "string", enum: ["active", "paused", "disabled"] },
          disabledReason: nullable(str),
          circuitState: { type: "string", enum: ["closed", "open", "half_open"] },
          applicationId: str,
          applicationName: str,
          attempts: rate,
        }),
      },
    }),
    ApiKeyOut: object(apiKey),
    ApiKeyCreatedOut: object({ ...apiKey, key: { ...str, description: "The key (hk_…): shown only in this answer" } }),
    ListResponse_ApiKeyOut_: listOf("ApiKeyOut"),
  };
}
