import { RETRY_AFTER_S } from "@/lib/http/errors";
import { route } from "@/lib/http/route";
import { checkHealth } from "@/lib/health/check-health";

export const dynamic = "force-dynamic";

// GET /api/v1/health/status — database and Redis reachability (200 when both answer, 503 otherwise)
export const GET = route(
  {
    doc: {
      id: "herald.health.status",
      tag: "Health",
      summary: "Database and Redis reachability: 200 when both answer, 503 otherwise",
      responses: { 200: "HealthOut" },
    },
    auth: "public",
  },
  async () => {
    const health = await checkHealth();
    return Response.json(
      { status: health.ok ? "ok" : "degraded", database: health.database, redis: health.redis },
      { status: health.ok ? 200 : 503, headers: health.ok ? {} : { "retry-after": String(RETRY_AFTER_S) } },
    );
  },
);
