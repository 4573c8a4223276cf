import { ApiError } from "@/lib/http/errors";
import { noContent, route } from "@/lib/http/route";
import { checkHealth } from "@/lib/health/check-health";
import { ref } from "@/lib/openapi/json-schema";

export const dynamic = "force-dynamic";

// GET /api/v1/health — Svix's health check: 204, no body, when the database and Redis answer
// (503 naming what does not otherwise). The detail is at /api/v1/health/status.
export const GET = route(
  {
    doc: {
      id: "v1.health.get",
      tag: "Health",
      summary: "Health check: 204 (no body) when the database and Redis answer; 503 otherwise (detail: /api/v1/health/status)",
      svix: true,
      responses: {
        204: null,
        503: { description: "The database or Redis does not answer", content: { "application/json": { schema: ref("HttpErrorOut") } } },
      },
    },
    auth: "public",
  },
  async () => {
    const health = await checkHealth();
    if (health.ok) return noContent;
    const down = (["database", "redis"] as const).filter((part) => health[part] !== "ok");
    throw new ApiError(503, "unhealthy", `Not reachable: ${down.join(", ")} (see /api/v1/health/status)`);
  },
);
