import { route } from "@/lib/http/route";
import { eventTypeListQuery } from "@/lib/http/params";
import { EventTypeIn } from "@/lib/event-types/schemas";
import { createEventType, listEventTypes } from "@/lib/event-types/manage-event-types";

// GET /api/v1/event-type — the event catalog, by name
export const GET = route({ auth: "any", query: eventTypeListQuery }, ({ scope, query }) => listEventTypes(scope, query));

// POST /api/v1/event-type — add an event type (resource.action) to the catalog; an archived one comes back
export const POST = route({ auth: "operator", write: true, status: 201, body: EventTypeIn }, ({ scope, body }) =>
  createEventType(scope, body),
);
