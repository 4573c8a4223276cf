import { noContent, reply, route } from "@/lib/http/route";
import { eventTypeParams, expungeQuery } from "@/lib/http/params";
import { EventTypePatch, EventTypeUpdate } from "@/lib/event-types/schemas";
import { serializeEventType } from "@/lib/event-types/serialize";
import { deleteEventType, findEventType, patchEventType, upsertEventType } from "@/lib/event-types/manage-event-types";

// GET /api/v1/event-type/{event_type_name} — one event type with its schemas
export const GET = route(
  {
    doc: {
      id: "v1.event-type.get",
      tag: "Event Type",
      summary: "Get an event type with its schemas",
      svix: true,
      responses: { 200: "EventTypeOut" },
    },
    auth: "any",
    params: eventTypeParams,
  },
  async ({ scope, params }) => serializeEventType(await findEventType(scope, params.event_type_name)),
);

// PUT /api/v1/event-type/{event_type_name} — replace an event type, creating it (201) when missing
export const PUT = route(
  {
    doc: {
      id: "v1.event-type.update",
      tag: "Event Type",
      summary: "Replace an event type, creating it (201) when missing",
      svix: true,
      responses: { 200: "EventTypeOut", 201: "EventTypeOut" },
    },
    auth: "operator",
    write: true,
    params: eventTypeParams,
    body: EventTypeUpdate,
  },
  async ({ scope, params, body }) => {
    const { created, eventType } = await upsertEventType(scope, params.event_type_name, body);
    return reply(created ? 201 : 200, eventType);
  },
);

// PATCH /api/v1/event-type/{event_type_name} — update some fields of an event type
export const PATCH = route(
  {
    doc: {
      id: "v1.event-type.patch",
      tag: "Event Type",
      summary: "Update some fields of an event type",
      svix: true,
      responses: { 200: "EventTypeOut" },
    },
    auth: "operator",
    write: true,
    params: eventTypeParams,
    body: EventTypePatch,
  },
  ({ scope, params, body }) => patchEventType(scope, params.event_type_name, body),
);

// DELETE /api/v1/event-type/{event_type_name} — archive an event type (expunge=true deletes it)
export const DELETE = route(
  {
    doc: {
      id: "v1.event-type.delete",
      tag: "Event Type",
      summary: "Archive an event type (expunge=true deletes it)",
      svix: true,
      responses: { 204: null },
    },
    auth: "operator",
    write: true,
    params: eventTypeParams,
    query: expungeQuery,
  },
  async ({ scope, params, query }) => {
    await deleteEventType(scope, params.event_type_name, query.expunge);
    return noContent;
  },
);
