import { route } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { deliveryLogQuery } from "@/lib/portal/schemas";
import { listDeliveryLogs } from "@/lib/portal/delivery-logs";

// GET /api/v1/portal/app/{app_id}/delivery — delivery log across all endpoints, newest first, with filters
export const GET = route(
  {
    doc: {
      id: "herald.portal.delivery-log",
      tag: "Portal",
      summary: "Delivery log across all endpoints, newest first, with filters",
      responses: { 200: "AnyObject" },
    },
    auth: "any",
    params: appParams,
    query: deliveryLogQuery,
  },
  ({ scope, params, query }) => listDeliveryLogs(scope, params.app_id, query),
);
