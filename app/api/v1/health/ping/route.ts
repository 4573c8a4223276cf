import { noContent, route } from "@/lib/http/route";

// GET /api/v1/health/ping — liveness: the web process is up
export const GET = route(
  {
    doc: {
      id: "v1.health.ping",
      tag: "Health",
      summary: "Liveness: the web process is up",
      svix: true,
      responses: { 204: null },
    },
    auth: "public",
  },
  () => Promise.resolve(noContent),
);
