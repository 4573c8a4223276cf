import { ApiError, RETRY_AFTER_S } from "@/lib/http/errors";
import { noContent, route } from "@/lib/http/route";
import { checkHealth } from "@/lib/health/check-health";
import { bootstrapState } from "@/lib/health/readiness";
import { ref } from "@/lib/openapi/json-schema";

export const dynamic = "force-dynamic";

// GET /api/v1/health — Svix's health check: 204, no body, when the database and Redis answer
// (503 naming what does not otherwise), and once the HERALD_BOOTSTRAP_* credentials work (503
// "starting" before: lib/health/readiness.ts). The detail is at /api/v1/health/status.
export const GET = route(
  {
    doc: {
      id: "v1.health.get",
      tag: "Health",
      summary:
        "Readiness: 204 (no body) when the database and Redis answer and the HERALD_BOOTSTRAP_* credentials are in place; 503 otherwise (detail: /api/v1/health/status)",
      svix: true,
      responses: {
        204: null,
        503: { description: "The database or Redis does not answer, or the server is still starting", content: { "application/json": { schema: ref("HttpErrorOut") } } },
      },
    },
    auth: "public",
  },
  async () => {
    const health = await checkHealth();
    const boot = bootstrapState();
    // Both 503s are passing states (a store restarting, the process starting): a balancer or a
    // client is told when to ask again, as for any request during an outage.
    const retry = { "retry-after": String(RETRY_AFTER_S) };
    if (health.ok && !boot.ready)
      throw new ApiError(503, "starting", `Starting: applying the HERALD_BOOTSTRAP_* settings${boot.error ? ` (last try: ${boot.error})` : ""}`, retry);
    if (health.ok) return noContent;
    const down = (["database", "redis"] as const).filter((part) => health[part] !== "ok");
    throw new ApiError(503, "unhealthy", `Not reachable: ${down.join(", ")} (see /api/v1/health/status)`, retry);
  },
);
