import { webMetrics } from "@/lib/metrics/web-metrics";

// GET /metrics — Prometheus metrics of the web process and the cluster (aggregates only, no ids)
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const registry = webMetrics();
  return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType } });
}
