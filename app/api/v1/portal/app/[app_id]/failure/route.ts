import { route } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { failureGroups } from "@/lib/portal/failure-groups";

// GET /api/v1/portal/app/{app_id}/failure — dead-lettered and failing deliveries grouped by endpoint and status code
export const GET = route(
  {
    doc: {
      id: "herald.portal.failures",
      tag: "Portal",
      summary: "Dead-lettered and failing deliveries grouped by endpoint and status code",
      responses: { 200: "AnyObject" },
    },
    auth: "any",
    params: appParams,
  },
  ({ scope, params }) => failureGroups(scope, params.app_id),
);
