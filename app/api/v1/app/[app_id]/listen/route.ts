import { reply, route } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { ensureListenEndpoint, ListenEndpointIn } from "@/lib/listen/ensure-listen-endpoint";

// POST /api/v1/app/{app_id}/listen — create (or reuse) the development endpoint `herald listen` forwards from
export const POST = route(
  {
    auth: "any",
    write: true,
    params: appParams,
    body: ListenEndpointIn,
    doc: {
      id: "herald.listen.create",
      tag: "Integrator tools",
      summary: "Create or reuse (by uid) a herald listen endpoint, with this run's event types and channels; answers its signing secret",
      description: "Used by `herald listen` (GET /cli/herald.mjs). Its deliveries go to the stream at GET …/listen/{endpoint_id}; a paused or disabled one is switched back on.",
      responses: { 201: "ListenEndpointOut", 200: "ListenEndpointOut" },
    },
  },
  async ({ scope, params, body }) => {
    const out = await ensureListenEndpoint(scope, params.app_id, body);
    return reply(out.created ? 201 : 200, out);
  },
);
