import { route } from "@/lib/http/route";
import { listQuery } from "@/lib/http/pagination";
import {
  channelFilter,
  endpointParams,
  eventTypesFilter,
  expandedStatuses,
  messageStatus,
  timeRange,
  withContent,
} from "@/lib/http/params";
import { listAttemptedMessages } from "@/lib/deliveries/query-deliveries";

const query = listQuery.extend({
  ...withContent,
  ...timeRange,
  ...eventTypesFilter,
  ...channelFilter,
  ...expandedStatuses,
  status: messageStatus.optional(),
});

// GET /api/v1/app/{app_id}/endpoint/{endpoint_id}/msg — messages sent to an endpoint, with delivery status
export const GET = route({ auth: "any", params: endpointParams, query }, ({ scope, params, query }) =>
  listAttemptedMessages(scope, params.app_id, params.endpoint_id, query),
);
