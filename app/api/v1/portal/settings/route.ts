import { route } from "@/lib/http/route";
import { portalSettings } from "@/lib/portal/portal-settings";

// GET /api/v1/portal/settings — bounds and names the portal's forms show (retry schedule, rate limit, signature headers)
export const GET = route({ auth: "any" }, () => Promise.resolve(portalSettings()));
