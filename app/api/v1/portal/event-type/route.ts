import { route } from "@/lib/http/route";
import { portalCatalog } from "@/lib/portal/portal-catalog";

// GET /api/v1/portal/event-type — the catalog the session may see, with schemas and example payloads
export const GET = route({ auth: "any" }, ({ principal, scope }) => portalCatalog(principal, scope));
