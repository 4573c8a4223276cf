import { route } from "@/lib/http/route";
import { portalSettings } from "@/lib/portal/portal-settings";

// GET /api/v1/portal/settings — bounds and names the portal shows (retry schedule and its default, rate limit, signature headers)
export const GET = route({ auth: "any" }, ({ scope }) => portalSettings(scope));
