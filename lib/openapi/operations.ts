import { z } from "zod";
import { ApplicationIn, ApplicationPatch } from "../applications/schemas";
import { EndpointHeadersIn, EndpointHeadersPatchIn, EndpointIn, EndpointPatch, EndpointSecretRotateIn, EndpointUpdate } from "../endpoints/schemas";
import { EventTypeIn, EventTypePatch, EventTypeUpdate } from "../event-types/schemas";
import { EventExampleIn, MessageIn } from "../messages/schemas";
import { AppPortalAccessIn, PortalSessionIn } from "../portal-access/schemas";
import { listQuery } from "../http/pagination";
import {
  attemptListQuery,
  attemptedMessagesQuery,
  eventTypeListQuery,
  expungeQuery,
  getIfExistsQuery,
  listMessagesQuery,
  statsQuery,
  withContentQuery,
} from "../http/params";
import { deliveryLogQuery, PreviewExampleIn, ValidateUrlIn } from "../portal/schemas";
import { TaskListQuery } from "../tasks/query-tasks";
import { ExportIn } from "../exports/start-export";
import { BulkRetryIn } from "../tasks/start-bulk-retry";
import { RecoverIn } from "../tasks/recover-endpoint";
import { ReplayMessageIn } from "../tasks/replay/replay-message";
import { ReplayFilterIn } from "../tasks/replay/replay-filter";
import { ReplayIn } from "../tasks/replay/start-replay";
import { EnvironmentSettingsPatch } from "../environments/environment-settings";
import { ref, type JsonSchema } from "./json-schema";

// Every operation of Herald's HTTP API, in one table. Request schemas are the zod schemas the
// routes validate with; responses name components (components.ts). A test checks that this
// table and the route files under app/api/v1 list exactly the same operations.

export type Method = "get" | "post" | "put" | "patch" | "delete";

export type Operation = {
  method: Method;
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** operator: API key. any: API key or portal session. public: none. link: header or a signed link. */
  auth: "operator" | "any" | "public" | "link";
  query?: z.ZodObject;
  body?: z.ZodType | JsonSchema;
  /** Honours the idempotency-key header (POSTs that change something). */
  idempotent?: boolean;
  /** Success status → component schema name, or null for no body. */
  success: Record<number, string | null | { description: string; content: Record<string, JsonSchema> }>;
  /** Part of the Svix-compatible API (the 26 paths of the Svix server's document). */
  svix?: boolean;
};

const operationalEndpoint: JsonSchema = {
  type: "object",
  properties: {
    url: { type: "string", format: "uri" },
    description: { type: "string" },
    uid: { type: ["string", "null"] },
    disabled: { type: "boolean" },
    filterTypes: { type: ["array", "null"], items: { type: "string" }, description: "Operational event types it receives" },
    eventTypes: { type: ["array", "null"], items: { type: "string" } },
    metadata: { type: "object", additionalProperties: { type: "string" } },
    rateLimit: { type: ["integer", "null"] },
    throttleRate: { type: ["integer", "null"] },
  },
};

const svix = (op: Omit<Operation, "svix">): Operation => ({ ...op, svix: true });

export const operations: Operation[] = [
  // Applications
  svix({ method: "get", path: "/api/v1/app", operationId: "v1.application.list", tag: "Application", auth: "any", summary: "List applications", query: listQuery, success: { 200: "ListResponse_ApplicationOut_" } }),
  svix({ method: "post", path: "/api/v1/app", operationId: "v1.application.create", tag: "Application", auth: "operator", summary: "Create an application (get_if_exists=true returns the one with the same uid, 200)", query: getIfExistsQuery, body: ApplicationIn, idempotent: true, success: { 201: "ApplicationOut", 200: "ApplicationOut" } }),
  svix({ method: "get", path: "/api/v1/app/{app_id}", operationId: "v1.application.get", tag: "Application", auth: "any", summary: "Get an application", success: { 200: "ApplicationOut" } }),
  svix({ method: "put", path: "/api/v1/app/{app_id}", operationId: "v1.application.update", tag: "Application", auth: "operator", summary: "Replace an application, creating it (201) when the uid does not exist", body: ApplicationIn, success: { 200: "ApplicationOut", 201: "ApplicationOut" } }),
  svix({ method: "patch", path: "/api/v1/app/{app_id}", operationId: "v1.application.patch", tag: "Application", auth: "operator", summary: "Update some fields of an application", body: ApplicationPatch, success: { 200: "ApplicationOut" } }),
  svix({ method: "delete", path: "/api/v1/app/{app_id}", operationId: "v1.application.delete", tag: "Application", auth: "operator", summary: "Delete an application with its endpoints, messages and delivery history", success: { 204: null } }),

  // Event types
  svix({ method: "get", path: "/api/v1/event-type", operationId: "v1.event-type.list", tag: "Event Type", auth: "any", summary: "List the event catalog, by name", query: eventTypeListQuery, success: { 200: "ListResponse_EventTypeOut_" } }),
  svix({ method: "post", path: "/api/v1/event-type", operationId: "v1.event-type.create", tag: "Event Type", auth: "operator", summary: "Add an event type (resource.action); an archived one of the same name is brought back", body: EventTypeIn, idempotent: true, success: { 201: "EventTypeOut" } }),
  svix({ method: "get", path: "/api/v1/event-type/{event_type_name}", operationId: "v1.event-type.get", tag: "Event Type", auth: "any", summary: "Get an event type with its schemas", success: { 200: "EventTypeOut" } }),
  svix({ method: "put", path: "/api/v1/event-type/{event_type_name}", operationId: "v1.event-type.update", tag: "Event Type", auth: "operator", summary: "Replace an event type, creating it (201) when missing", body: EventTypeUpdate, success: { 200: "EventTypeOut", 201: "EventTypeOut" } }),
  svix({ method: "patch", path: "/api/v1/event-type/{event_type_name}", operationId: "v1.event-type.patch", tag: "Event Type", auth: "operator", summary: "Update some fields of an event type", body: EventTypePatch, success: { 200: "EventTypeOut" } }),
  svix({ method: "delete", path: "/api/v1/event-type/{event_type_name}", operationId: "v1.event-type.delete", tag: "Event Type", auth: "operator", summary: "Archive an event type (expunge=true deletes it)", query: expungeQuery, success: { 204: null } }),

  // Endpoints
  svix({ method: "get", path: "/api/v1/app/{app_id}/endpoint", operationId: "v1.endpoint.list", tag: "Endpoint", auth: "any", summary: "List an application's endpoints", query: listQuery, success: { 200: "ListResponse_EndpointOut_" } }),
  svix({ method: "post", path: "/api/v1/app/{app_id}/endpoint", operationId: "v1.endpoint.create", tag: "Endpoint", auth: "any", summary: "Register an endpoint (the URL must be public: SSRF rules)", body: EndpointIn, idempotent: true, success: { 201: "EndpointOut" } }),
  svix({ method: "get", path: "/api/v1/app/{app_id}/endpoint/{endpoint_id}", operationId: "v1.endpoint.get", tag: "Endpoint", auth: "any", summary: "Get an endpoint", success: { 200: "EndpointOut" } }),
  svix({ method: "put", path: "/api/v1/app/{app_id}/endpoint/{endpoint_id}", operationId: "v1.endpoint.update", tag: "Endpoint", auth: "any", summary: "Replace an endpoint's settings, creating it (201) when the uid does not exist", body: EndpointUpdate, success: { 200: "EndpointOut", 201: "EndpointOut" } }),
  svix({ method: "patch", path: "/api/v1/app/{app_id}/endpoint/{endpoint_id}", operationId: "v1.endpoint.patch", tag: "Endpoint", auth: "any", summary: "Update some settings; disabled pauses or resumes", body: EndpointPatch, success: { 200: "EndpointOut" } }),
  svix({ method: "delete", path: "/api/v1/app/{app_id}/endpoint/{endpoint_id}", operationId: "v1.endpoint.delete", tag: "Endpoint", auth: "any", summary: "Delete an endpoint and its delivery history (a new one with the same URL starts empty)", success: { 204: null } }),
  svix({ method: "get", path: "/api/v1/app/{app_id}/endpoint/{endpoint_id}/headers", operationId: "v1.endpoint.get-headers", tag: "Endpoint", auth: "any", summary: "Custom headers (values of sensitive ones withheld)", success: { 200: "EndpointHeadersOut" } }),
  svix({ method: "put", path: "/api/v1/app/{app_id}/endpoint/{endpoint_id}/headers", operationId: "v1.endpoint.update-headers", tag: "Endpoint", auth: "any", summary: "Replace all custom headers", body: EndpointHeadersIn, success: { 204: null } }),
  svix({ method: "patch", path: "/api/v1/app/{app_id}/endpoint/{endpoint_id}/headers", operationId: "v1.endpoint.patch-headers", tag: "Endpoint", auth: "any", summary: "Set some custom headers; null removes one", body: EndpointHeadersPatchIn, success: { 204: null } }),
  svix({ method: "get", path: "/api/v1/app/{app_id}/endpoint/{endpoint_id}/secret", operationId: "v1.endpoint.get-secret", tag: "Endpoint", auth: "any", summary: "The signing secret (the public key for ed25519 endpoints)", success: { 200: "EndpointSecretOut" } }),
  svix({ method: "post", path: "/api/v1/app/{app_id}/endpoint/{endpoint_id}/secret/rotate", operationId: "v1.endpoint.rotate-secret", tag: "Endpoint", auth: "any", summary: "Rotate the secret; the previous one keeps signing (a second signature) for gracePeriodSeconds, default 24 h", body: EndpointSecretRotateIn, idempotent: true, success: { 204: null } }),
  svix({ method: "get", path: "/api/v1/app/{app_id}/endpoint/{endpoint_id}/stats", operationId: "v1.endpoint.get-stats", tag: "Endpoint", auth: "any", summary: "Delivery counts by status", query: statsQuery, success: { 200: "EndpointStats" } }),
  svix({ method: "post", path: "/api/v1/app/{app_id}/endpoint/{endpoint_id}/send-example", operationId: "v1.endpoint.send-example", tag: "Endpoint", auth: "any", summary: "Send a sample of an event type (from its schema) to this endpoint only", body: EventExampleIn, idempotent: true, success: { 200: "PublishedMessageOut" } }),
  svix({ method: "post", path: "/api/v1/app/{app_id}/endpoint/{endpoint_id}/recover", operationId: "v1.endpoint.recover", tag: "Endpoint", auth: "any", summary: "Async: re-attempt the failed deliveries since a time (a task)", body: RecoverIn, idempotent: true, success: { 202: "RecoverOut" } }),

  // Messages
  svix({ method: "get", path: "/api/v1/app/{app_id}/msg", operationId: "v1.message.list", tag: "Message", auth: "any", summary: "List messages, newest first", query: listMessagesQuery, success: { 200: "ListResponse_MessageOut_" } }),
  svix({
    method: "post",
    path: "/api/v1/app/{app_id}/msg",
    operationId: "v1.message.create",
    tag: "Message",
    auth: "operator",
    summary: "Publish a message: stored with one delivery per matching endpoint in one transaction, then queued",
    description:
      "A duplicate eventId within 24 h is a 409. With an idempotency-key, a retry within 24 h returns the original response. Bodies over 256 KiB are refused (413); payloads over 20 KiB are accepted with a warning.",
    query: withContentQuery,
    body: MessageIn,
    idempotent: true,
    success: { 202: "PublishedMessageOut" },
  }),
  svix({ method: "get", path: "/api/v1/app/{app_id}/msg/{msg_id}", operationId: "v1.message.get", tag: "Message", auth: "any", summary: "Get a message by id or eventId", query: withContentQuery, success: { 200: "MessageOut" } }),
  svix({ method: "delete", path: "/api/v1/app/{app_id}/msg/{msg_id}/content", operationId: "v1.message.expunge-content", tag: "Message", auth: "operator", summary: "Delete a message's payload (the message and its history stay)", success: { 204: null } }),

  // Attempts and deliveries
  svix({ method: "get", path: "/api/v1/app/{app_id}/attempt/endpoint/{endpoint_id}", operationId: "v1.message-attempt.list-by-endpoint", tag: "Message Attempt", auth: "any", summary: "Attempts made to an endpoint, newest first", query: attemptListQuery.omit({ endpoint_id: true }), success: { 200: "ListResponse_MessageAttemptOut_" } }),
  svix({ method: "get", path: "/api/v1/app/{app_id}/attempt/msg/{msg_id}", operationId: "v1.message-attempt.list-by-msg", tag: "Message Attempt", auth: "any", summary: "Attempts made for a message, newest first", query: attemptListQuery, success: { 200: "ListResponse_MessageAttemptOut_" } }),
  svix({ method: "get", path: "/api/v1/app/{app_id}/endpoint/{endpoint_id}/msg", operationId: "v1.message-attempt.list-attempted-messages", tag: "Message Attempt", auth: "any", summary: "Messages sent to an endpoint, with their delivery status", query: attemptedMessagesQuery, success: { 200: "ListResponse_EndpointMessageOut_" } }),
  svix({ method: "get", path: "/api/v1/app/{app_id}/msg/{msg_id}/endpoint", operationId: "v1.message-attempt.list-attempted-destinations", tag: "Message Attempt", auth: "any", summary: "Endpoints a message was sent to, with the delivery status", query: listQuery, success: { 200: "ListResponse_MessageEndpointOut_" } }),
  svix({ method: "get", path: "/api/v1/app/{app_id}/msg/{msg_id}/attempt/{attempt_id}", operationId: "v1.message-attempt.get", tag: "Message Attempt", auth: "any", summary: "One attempt, with exactly what was sent and what came back", success: { 200: "MessageAttemptOut" } }),
  svix({ method: "delete", path: "/api/v1/app/{app_id}/msg/{msg_id}/attempt/{attempt_id}/content", operationId: "v1.message-attempt.expunge-content", tag: "Message Attempt", auth: "operator", summary: "Delete the bodies an attempt stored (status and timing stay)", success: { 204: null } }),
  svix({ method: "post", path: "/api/v1/app/{app_id}/msg/{msg_id}/endpoint/{endpoint_id}/resend", operationId: "v1.message-attempt.resend", tag: "Message Attempt", auth: "any", summary: "Retry: a new attempt of the same delivery (same webhook-id)", idempotent: true, success: { 202: "EmptyResponse" } }),

  // Authentication
  svix({ method: "post", path: "/api/v1/auth/app-portal-access/{app_id}", operationId: "v1.authentication.app-portal-access", tag: "Authentication", auth: "operator", summary: "A magic link to the portal for one application (expires, default 7 days)", body: AppPortalAccessIn, idempotent: true, success: { 200: "AppPortalAccessOut" } }),
  svix({ method: "post", path: "/api/v1/auth/logout", operationId: "v1.authentication.logout", tag: "Authentication", auth: "any", summary: "End the calling portal session (API keys cannot log out)", success: { 204: null } }),
  { method: "post", path: "/api/v1/auth/app/{app_id}/expire-all", operationId: "v1.authentication.expire-all", tag: "Authentication", auth: "operator", summary: "Revoke every portal link and session of an application", idempotent: true, success: { 204: null } },
  { method: "post", path: "/api/v1/auth/portal-session", operationId: "herald.portal-session.create", tag: "Authentication", auth: "public", summary: "Exchange a portal link's token for a short-lived session token (used by the portal page)", body: PortalSessionIn, success: { 200: "PortalSessionOut" } },

  // Health
  svix({ method: "get", path: "/api/v1/health", operationId: "v1.health.get", tag: "Health", auth: "public", summary: "Database and Redis reachability: 200 when both answer, 503 otherwise", success: { 200: "HealthOut" } }),
  svix({ method: "get", path: "/api/v1/health/ping", operationId: "v1.health.ping", tag: "Health", auth: "public", summary: "Liveness: the web process is up", success: { 204: null } }),
  { method: "get", path: "/api/v1/openapi.json", operationId: "herald.openapi", tag: "Health", auth: "public", summary: "This document", success: { 200: "AnyObject" } },

  // Tasks (Herald)
  { method: "get", path: "/api/v1/tasks", operationId: "herald.task.list", tag: "Task", auth: "any", summary: "The environment's tasks (a portal session: its application's), newest first", query: TaskListQuery, success: { 200: "ListResponse_TaskOut_" } },
  { method: "get", path: "/api/v1/tasks/{task_id}", operationId: "herald.task.get", tag: "Task", auth: "any", summary: "State, progress, counts, ETA, result link or error of a task", success: { 200: "TaskOut" } },
  { method: "post", path: "/api/v1/tasks/{task_id}/cancel", operationId: "herald.task.cancel", tag: "Task", auth: "any", summary: "Stop a pending or running task; work already done is kept (202 while it winds down)", idempotent: true, success: { 200: "TaskOut", 202: "TaskOut" } },
  {
    method: "get",
    path: "/api/v1/tasks/{task_id}/events",
    operationId: "herald.task.events",
    tag: "Task",
    auth: "link",
    summary: "Server-Sent Events: state changes and progress until the task ends (header auth or the signed events_url)",
    success: { 200: { description: "An event stream", content: { "text/event-stream": { schema: { type: "string" } } } } },
  },
  {
    method: "get",
    path: "/api/v1/tasks/{task_id}/result",
    operationId: "herald.task.result",
    tag: "Task",
    auth: "link",
    summary: "Download an export's file (header auth or the signed, expiring result_url)",
    success: { 200: { description: "The file", content: { "application/x-ndjson": { schema: { type: "string" } }, "text/csv": { schema: { type: "string" } } } } },
  },
  { method: "post", path: "/api/v1/app/{app_id}/attempt/export", operationId: "herald.attempt.export", tag: "Task", auth: "any", summary: "Async: the delivery log of a filter as NDJSON or CSV", body: ExportIn, idempotent: true, success: { 202: "TaskAccepted" } },
  { method: "post", path: "/api/v1/app/{app_id}/bulk-retry", operationId: "herald.bulk-retry", tag: "Task", auth: "any", summary: "Async: re-attempt the dead-lettered deliveries of a filter", body: BulkRetryIn, idempotent: true, success: { 202: "TaskAccepted" } },
  { method: "post", path: "/api/v1/app/{app_id}/replay/estimate", operationId: "herald.replay.estimate", tag: "Task", auth: "any", summary: "Dry run: how many messages and deliveries a replay would create, and the confirmation token that starts it", body: ReplayFilterIn, success: { 200: "AnyObject" } },
  { method: "post", path: "/api/v1/app/{app_id}/replay", operationId: "herald.replay", tag: "Task", auth: "any", summary: "Async: ingest the messages of a filter again, as new messages (needs the estimate's confirmation when large)", body: ReplayIn, idempotent: true, success: { 202: "TaskAccepted" } },
  { method: "post", path: "/api/v1/app/{app_id}/msg/{msg_id}/replay", operationId: "herald.message.replay", tag: "Message", auth: "any", summary: "Ingest one message again as a new message (replayOf = the original), to all subscribed endpoints or endpoint_id only", body: ReplayMessageIn, idempotent: true, success: { 202: "PublishedMessageOut" } },

  // Environment settings (Herald)
  { method: "get", path: "/api/v1/environment/settings", operationId: "herald.environment.settings", tag: "Environment", auth: "operator", summary: "The environment's retry schedule, and the one endpoints without their own follow", success: { 200: "EnvironmentSettingsOut" } },
  { method: "patch", path: "/api/v1/environment/settings", operationId: "herald.environment.update-settings", tag: "Environment", auth: "operator", summary: "Set the environment's retry schedule (null: the platform default); applies to retries scheduled from now on", body: EnvironmentSettingsPatch, success: { 200: "EnvironmentSettingsOut" } },

  // Operational webhooks (Herald): events about the platform itself, to the operator's endpoints
  { method: "get", path: "/api/v1/operational-webhook/endpoint", operationId: "herald.operational-webhook.list", tag: "Operational Webhook", auth: "operator", summary: "List the environment's operational webhook endpoints", query: listQuery, success: { 200: "ListResponse_EndpointOut_" } },
  { method: "post", path: "/api/v1/operational-webhook/endpoint", operationId: "herald.operational-webhook.create", tag: "Operational Webhook", auth: "operator", summary: "Register an endpoint for operational events (endpoint disabled, message attempt exhausted, ...)", body: { ...operationalEndpoint, required: ["url"] }, idempotent: true, success: { 201: "EndpointOut" } },
  { method: "get", path: "/api/v1/operational-webhook/endpoint/{endpoint_id}", operationId: "herald.operational-webhook.get", tag: "Operational Webhook", auth: "operator", summary: "One operational endpoint", success: { 200: "EndpointOut" } },
  { method: "put", path: "/api/v1/operational-webhook/endpoint/{endpoint_id}", operationId: "herald.operational-webhook.update", tag: "Operational Webhook", auth: "operator", summary: "Replace its settings", body: { ...operationalEndpoint, required: ["url"] }, success: { 200: "EndpointOut" } },
  { method: "patch", path: "/api/v1/operational-webhook/endpoint/{endpoint_id}", operationId: "herald.operational-webhook.patch", tag: "Operational Webhook", auth: "operator", summary: "Change some settings; disabled pauses or resumes", body: operationalEndpoint, success: { 200: "EndpointOut" } },
  { method: "delete", path: "/api/v1/operational-webhook/endpoint/{endpoint_id}", operationId: "herald.operational-webhook.delete", tag: "Operational Webhook", auth: "operator", summary: "Delete it and its delivery history", success: { 204: null } },
  { method: "get", path: "/api/v1/operational-webhook/endpoint/{endpoint_id}/headers", operationId: "herald.operational-webhook.get-headers", tag: "Operational Webhook", auth: "operator", summary: "Custom headers (sensitive values withheld)", success: { 200: "EndpointHeadersOut" } },
  { method: "put", path: "/api/v1/operational-webhook/endpoint/{endpoint_id}/headers", operationId: "herald.operational-webhook.update-headers", tag: "Operational Webhook", auth: "operator", summary: "Replace all custom headers", body: EndpointHeadersIn, success: { 204: null } },
  { method: "get", path: "/api/v1/operational-webhook/endpoint/{endpoint_id}/secret", operationId: "herald.operational-webhook.get-secret", tag: "Operational Webhook", auth: "operator", summary: "Its signing secret", success: { 200: "EndpointSecretOut" } },
  { method: "post", path: "/api/v1/operational-webhook/endpoint/{endpoint_id}/secret/rotate", operationId: "herald.operational-webhook.rotate-secret", tag: "Operational Webhook", auth: "operator", summary: "New secret; the old one keeps signing for 24 h", body: { type: "object", properties: { key: { type: ["string", "null"] } } }, idempotent: true, success: { 204: null } },

  // Portal read models (Herald): what the embeddable portal page calls with its session
  { method: "get", path: "/api/v1/portal/session", operationId: "herald.portal.session", tag: "Portal", auth: "any", summary: "The calling portal session: its application, read-only flag, capabilities, expiry", success: { 200: "AnyObject" } },
  { method: "get", path: "/api/v1/portal/settings", operationId: "herald.portal.settings", tag: "Portal", auth: "any", summary: "Bounds and names the portal shows (retry schedule, rate limit, signature headers)", success: { 200: "AnyObject" } },
  { method: "get", path: "/api/v1/portal/event-type", operationId: "herald.portal.event-types", tag: "Portal", auth: "any", summary: "The catalog the session may see, with schemas and example payloads", success: { 200: "AnyObject" } },
  { method: "get", path: "/api/v1/portal/app/{app_id}/delivery", operationId: "herald.portal.delivery-log", tag: "Portal", auth: "any", summary: "Delivery log across all endpoints, newest first, with filters", query: deliveryLogQuery, success: { 200: "AnyObject" } },
  { method: "get", path: "/api/v1/portal/app/{app_id}/delivery/{delivery_id}", operationId: "herald.portal.delivery", tag: "Portal", auth: "any", summary: "One delivery with all its attempts (the inspector)", success: { 200: "AnyObject" } },
  { method: "get", path: "/api/v1/portal/app/{app_id}/endpoint-health", operationId: "herald.portal.endpoint-health", tag: "Portal", auth: "any", summary: "Per endpoint: attempt success rate and hourly counts, last 24 h", success: { 200: "AnyObject" } },
  { method: "get", path: "/api/v1/portal/app/{app_id}/failure", operationId: "herald.portal.failures", tag: "Portal", auth: "any", summary: "Dead-lettered and failing deliveries grouped by endpoint and status code", success: { 200: "AnyObject" } },
  { method: "post", path: "/api/v1/portal/app/{app_id}/validate-url", operationId: "herald.portal.validate-url", tag: "Portal", auth: "any", summary: "Would this endpoint URL be accepted? (SSRF rules included; changes nothing)", body: ValidateUrlIn, success: { 200: "AnyObject" } },
  { method: "post", path: "/api/v1/portal/app/{app_id}/endpoint/{endpoint_id}/preview-example", operationId: "herald.portal.preview-example", tag: "Portal", auth: "any", summary: "The exact body and headers a sample event would be sent with", body: PreviewExampleIn, success: { 200: "AnyObject" } },
];

export const PATH_PARAMETERS: Record<string, string> = {
  app_id: "The application's id (app_…) or its uid",
  endpoint_id: "The endpoint's id (ep_…) or its uid",
  msg_id: "The message's id (msg_…) or its eventId",
  attempt_id: "The attempt's id (atmpt_…)",
  event_type_name: "The event type's name (resource.action)",
  task_id: "The task's id (qtask_…)",
  delivery_id: "The delivery's id (dlv_…)",
};

export const errorRef = (name: string): JsonSchema => ({ $ref: `#/components/responses/${name}` });
export { ref };
