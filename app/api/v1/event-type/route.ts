import { route, zBool } from "@/lib/http/route";
import { listQuery } from "@/lib/http/pagination";
import { EventTypeIn } from "@/lib/event-types/schemas";
import { createEventType, listEventTypes } from "@/lib/event-types/manage-event-types";

// Unlike the message lists, schemas are left out unless asked for (as in Svix).
const query = listQuery.extend({ with_content: zBool.default(false), include_archived: zBool.default(false) });

// GET /api/v1/event-type — the event catalog, by name
export const GET = route({ auth: "any", query }, ({ scope, query }) => listEventTypes(scope, query));

// POST /api/v1/event-type — add an event type (resource.action) to the catalog
export const POST = route({ auth: "operator", write: true, status: 201, body: EventTypeIn }, ({ scope, body }) =>
  createEventType(scope, body),
);
