import { route } from "@/lib/http/route";
import { catalogDocument } from "@/lib/openapi/catalog-document";

// GET /api/v1/environment/openapi.json — the event catalog as an OpenAPI 3.1 document (webhooks)
export const GET = route(
  {
    auth: "operator",
    doc: {
      id: "herald.environment.catalog-openapi",
      tag: "Environment",
      summary: "The event catalog as an OpenAPI 3.1 document: one `webhooks` entry per event type, with the envelope, each version's schema, an example and the signature headers",
      responses: { 200: "AnyObject" },
    },
  },
  ({ principal, scope }) => catalogDocument(principal, scope),
);
