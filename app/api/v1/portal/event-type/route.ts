import { route } from "@/lib/http/route";
import { portalCatalog } from "@/lib/portal/portal-catalog";

// GET /api/v1/portal/event-type — the catalog the session may see, with schemas and example payloads
export const GET = route(
  {
    doc: {
      id: "herald.portal.event-types",
      tag: "Portal",
      summary: "The catalog the session may see, with schemas and example payloads",
      responses: { 200: "AnyObject" },
    },
    auth: "any",
  },
  ({ principal, scope }) => portalCatalog(principal, scope),
);
