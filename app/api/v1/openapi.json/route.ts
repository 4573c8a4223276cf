import { route } from "@/lib/http/route";
import { openApiDocument } from "@/lib/openapi/build-document";

// GET /api/v1/openapi.json — Herald's API as implemented (OpenAPI 3.1)
export const GET = route(
  {
    doc: { id: "herald.openapi", tag: "Health", summary: "This document", responses: { 200: "AnyObject" } },
    auth: "public",
  },
  () => Promise.resolve(openApiDocument()),
);
