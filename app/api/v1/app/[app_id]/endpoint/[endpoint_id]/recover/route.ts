import { z } from "zod";
import { route } from "@/lib/http/route";
import { endpointParams } from "@/lib/http/params";
import { zDateTime } from "@/lib/http/fields";
import { recoverEndpoint } from "@/lib/tasks/recover-endpoint";

const RecoverIn = z.object({ since: zDateTime, until: zDateTime.nullish() });

// POST /api/v1/app/{app_id}/endpoint/{endpoint_id}/recover — async: re-attempt failed deliveries since a time
export const POST = route(
  { auth: "any", write: true, status: 202, params: endpointParams, body: RecoverIn },
  ({ scope, params, body }) => recoverEndpoint(scope, params.app_id, params.endpoint_id, body),
);
