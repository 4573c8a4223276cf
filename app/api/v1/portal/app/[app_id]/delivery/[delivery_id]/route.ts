import { route } from "@/lib/http/route";
import { deliveryParams } from "@/lib/portal/schemas";
import { deliveryTimeline } from "@/lib/portal/delivery-timeline";

// GET /api/v1/portal/app/{app_id}/delivery/{delivery_id} — one delivery with all its attempts (the inspector)
export const GET = route(
  {
    doc: {
      id: "herald.portal.delivery",
      tag: "Portal",
      summary: "One delivery with all its attempts (the inspector)",
      responses: { 200: "AnyObject" },
    },
    auth: "any",
    params: deliveryParams,
  },
  ({ scope, params }) => deliveryTimeline(scope, params.app_id, params.delivery_id),
);
