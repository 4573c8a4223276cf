import { route } from "@/lib/http/route";
import { eventTypeListQuery } from "@/lib/http/params";
import { EventTypeIn } from "@/lib/event-types/schemas";
import { createEventType, listEventTypes } from "@/lib/event-types/manage-event-types";

// GET /api/v1/event-type — the event catalog, by name
export const GET = route(
  {
    doc: {
      id: "v1.event-type.list",
      tag: "Event Type",
      summary: "List the event catalog, by name",
      svix: true,
      responses: { 200: "ListResponse_EventTypeOut_" },
    },
    auth: "any",
    query: eventTypeListQuery,
  },
  ({ scope, query }) => listEventTypes(scope, query),
);

// POST /api/v1/event-type — add an event type (resource.action) to the catalog; an archived one comes back
export const POST = route(
  {
    doc: {
      id: "v1.event-type.create",
      tag: "Event Type",
      summary: "Add an event type (resource.action); an archived one of the same name is brought back",
      svix: true,
      responses: { 201: "EventTypeOut" },
    },
    auth: "operator",
    write: true,
    status: 201,
    body: EventTypeIn,
  },
  ({ scope, body }) => createEventType(scope, body),
);
