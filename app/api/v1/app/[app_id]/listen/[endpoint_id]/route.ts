import { route } from "@/lib/http/route";
import { endpointParams } from "@/lib/http/params";
import { listenStream } from "@/lib/listen/listen-stream";

export const dynamic = "force-dynamic";

// GET /api/v1/app/{app_id}/listen/{endpoint_id} — Server-Sent Events: every delivery to the endpoint, signed, for herald listen
export const GET = route(
  {
    auth: "any",
    params: endpointParams,
    doc: {
      id: "herald.listen.stream",
      tag: "Integrator tools",
      summary: "Server-Sent Events: `ready`, then a `delivery` (id, exact signed headers and body, timeoutMs) per attempt to this herald listen endpoint",
      description: "Answer each delivery with POST …/answer within timeoutMs. The stream ends after 10 minutes; reconnect.",
      responses: { 200: { description: "An event stream", content: { "text/event-stream": { schema: { type: "string" } } } } },
    },
  },
  ({ req, scope, params }) => listenStream(scope, params.app_id, params.endpoint_id, req.signal),
);
