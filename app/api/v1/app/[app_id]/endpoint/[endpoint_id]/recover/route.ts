import { route } from "@/lib/http/route";
import { endpointParams } from "@/lib/http/params";
import { RecoverIn, recoverEndpoint } from "@/lib/tasks/recover-endpoint";

// POST /api/v1/app/{app_id}/endpoint/{endpoint_id}/recover — async: re-attempt failed deliveries since a time
// (Svix RecoverOut; the task is at GET /api/v1/tasks/{id})
export const POST = route(
  {
    doc: {
      id: "v1.endpoint.recover",
      tag: "Endpoint",
      summary: "Async: re-attempt the failed deliveries since a time (a task)",
      svix: true,
      responses: { 202: "RecoverOut" },
    },
    auth: "any",
    write: "retry",
    status: 202,
    params: endpointParams,
    body: RecoverIn,
  },
  ({ scope, params, body }) => {
    return recoverEndpoint(scope, params.app_id, params.endpoint_id, body);
  },
);
