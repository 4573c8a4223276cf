import { route } from "@/lib/http/route";
import { PortalSessionIn } from "@/lib/portal-access/schemas";
import { exchangePortalToken } from "@/lib/portal-access/portal-tokens";

// POST /api/v1/auth/portal-session — exchange a magic-link token for a short-lived portal session
export const POST = route({ auth: "public", body: PortalSessionIn }, ({ body }) => exchangePortalToken(body.token));
