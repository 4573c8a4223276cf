import { route } from "@/lib/http/route";
import { environmentOverview } from "@/lib/overview/environment-overview";

// GET /api/v1/environment/overview — deliveries of the last hour and day by outcome, backlog, dead letters, running tasks, most failing endpoints
export const GET = route(
  {
    doc: {
      id: "herald.environment.overview",
      tag: "Environment",
      summary:
        "Deliveries of the last hour and day by outcome (and per hour), waiting and dead deliveries, running tasks and the 10 endpoints with the most failed attempts in 24 h",
      responses: { 200: "EnvironmentOverviewOut" },
    },
    auth: "operator",
  },
  ({ scope }) => environmentOverview(scope),
);
