import { route } from "@/lib/http/route";
import { openApiDocument } from "@/lib/openapi/build-document";

// GET /api/v1/openapi.json — Herald's API as implemented (OpenAPI 3.1)
export const GET = route({ auth: "public" }, () => Promise.resolve(openApiDocument()));
