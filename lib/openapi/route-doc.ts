import type { JsonSchema } from "./json-schema";

// What a route says about itself in /api/v1/openapi.json, beside what its spec already gives the
// document (auth, path params, query, body, idempotency): see lib/http/route.ts.

export type RouteResponse = string | null | { description: string; content: Record<string, JsonSchema> };

export type RouteDoc = {
  /** operationId; the Svix ones keep Svix's (v1.*) so tooling built for its document finds them. */
  id: string;
  tag: string;
  summary: string;
  description?: string;
  /** Part of the Svix-compatible API (the 26 paths of the Svix server's document). */
  svix?: boolean;
  /** auth "public" routes that take an Authorization header or a signed link themselves. */
  linkAuth?: boolean;
  /** Success status -> a response component name (components.ts), null for no body, or a full response. */
  responses: Record<number, RouteResponse>;
};

/** Descriptions of the path parameters, by name. */
export const PATH_PARAMETERS: Record<string, string> = {
  app_id: "The application's id (app_…) or its uid",
  endpoint_id: "The endpoint's id (ep_…) or its uid",
  msg_id: "The message's id (msg_…) or its eventId",
  attempt_id: "The attempt's id (atmpt_…)",
  event_type_name: "The event type's name (resource.action)",
  task_id: "The task's id (qtask_…)",
  key_id: "The API key's id (key_…)",
  delivery_id: "The delivery's id (dlv_…)",
  email: "The member's email address (case-insensitive)",
};
