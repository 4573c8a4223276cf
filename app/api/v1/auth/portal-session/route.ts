import { z } from "zod";
import { route } from "@/lib/http/route";
import { exchangePortalToken } from "@/lib/portal-access/portal-tokens";

// POST /api/v1/auth/portal-session — exchange a magic-link token for a short-lived portal session
export const POST = route({ auth: "public", body: z.object({ token: z.string().min(1).max(512) }) }, ({ body }) =>
  exchangePortalToken(body.token),
);
