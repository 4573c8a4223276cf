import { ApiError } from "@/lib/http/errors";
import { route } from "@/lib/http/route";

// Any other /api/v1 path: a JSON 404 (not the HTML page), so SDKs and curl get a readable error.
const unknownPath = route({ auth: "public", doc: null }, ({ req }) => {
  const { pathname } = new URL(req.url);
  return Promise.reject(
    new ApiError(404, "not_found", `No such API path: ${req.method} ${pathname} (see /api/v1/openapi.json)`),
  );
});

export { unknownPath as GET, unknownPath as POST, unknownPath as PUT, unknownPath as PATCH, unknownPath as DELETE };
