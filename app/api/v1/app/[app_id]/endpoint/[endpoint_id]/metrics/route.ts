import { route } from "@/lib/http/route";
import { endpointParams } from "@/lib/http/params";
import { endpointMetrics, endpointMetricsQuery } from "@/lib/endpoints/endpoint-metrics";

// GET /api/v1/app/{app_id}/endpoint/{endpoint_id}/metrics — success rate, status codes and latency over 1 h, 24 h or 7 d
export const GET = route(
  {
    doc: {
      id: "herald.endpoint.get-metrics",
      tag: "Endpoint",
      summary: "Success rate, status codes and latency p50/p95 of the endpoint's attempts over the last hour, day or week",
      responses: { 200: "EndpointMetricsOut" },
    },
    auth: "any",
    params: endpointParams,
    query: endpointMetricsQuery,
  },
  ({ scope, params, query }) => endpointMetrics(scope, params.app_id, params.endpoint_id, query.window),
);
