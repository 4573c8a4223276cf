import { route } from "@/lib/http/route";
import { catalogDocument } from "@/lib/openapi/catalog-document";

// GET /api/v1/portal/event-type/openapi.json — the catalog the session sees, as OpenAPI 3.1 (the portal's "Download OpenAPI")
export const GET = route(
  {
    auth: "any",
    doc: {
      id: "herald.portal.catalog-openapi",
      tag: "Portal",
      summary: "The catalog the session may see as an OpenAPI 3.1 document (webhooks), in its application's payload format",
      responses: { 200: "AnyObject" },
    },
  },
  ({ principal, scope }) => catalogDocument(principal, scope),
);
