import { route } from "@/lib/http/route";
import { listQuery } from "@/lib/http/pagination";
import { msgParams } from "@/lib/http/params";
import { listAttemptedDestinations } from "@/lib/deliveries/query-deliveries";

// GET /api/v1/app/{app_id}/msg/{msg_id}/endpoint — endpoints a message was sent to, with delivery status
export const GET = route({ auth: "any", params: msgParams, query: listQuery }, ({ scope, params, query }) =>
  listAttemptedDestinations(scope, params.app_id, params.msg_id, query),
);
