import { route } from "@/lib/http/route";
import { portalSettings } from "@/lib/portal/portal-settings";

// GET /api/v1/portal/settings — bounds and names the portal shows (retry schedule and its default, rate limit, signature headers)
export const GET = route(
  {
    doc: {
      id: "herald.portal.settings",
      tag: "Portal",
      summary: "Bounds and names the portal shows (retry schedule, rate limit, signature headers)",
      responses: { 200: "AnyObject" },
    },
    auth: "any",
  },
  ({ scope }) => portalSettings(scope),
);
