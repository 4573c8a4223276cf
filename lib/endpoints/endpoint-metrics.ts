import { z } from "zod";
import { db } from "../db";
import { idAtTime } from "../ids";
import type { Scope } from "../auth/principal";
import { findEndpoint } from "./find-endpoint";

// An endpoint's delivery metrics over the last hour, day or week, from its attempts (each HTTP
// try counts, as in the portal's 24 h health): success rate, the answers' status codes, and the
// latency (median and 95th percentile of the attempt's duration). Svix has no such route; its
// /stats (delivery counts by status) stays as it is beside this one. Two aggregates over the
// (endpoint_id, id) index, the window being an id range, so the cost is the endpoint's attempts in
// that window, not the table's.

export const METRIC_WINDOWS = { "1h": 3600_000, "24h": 24 * 3600_000, "7d": 7 * 24 * 3600_000 } as const;
export type MetricWindow = keyof typeof METRIC_WINDOWS;

export const endpointMetricsQuery = z.object({
  window: z.enum(Object.keys(METRIC_WINDOWS) as [MetricWindow, ...MetricWindow[]], { error: "must be one of 1h, 24h, 7d" }).default("24h"),
});

export async function endpointMetrics(scope: Scope, appIdOrUid: string, endpointIdOrUid: string, window: MetricWindow, now = new Date()) {
  const { endpoint } = await findEndpoint(scope, appIdOrUid, endpointIdOrUid);
  const since = new Date(now.getTime() - METRIC_WINDOWS[window]);
  const from = idAtTime("attempt", since);
  const [totals, codes] = await Promise.all([
    db.$queryRaw<{ success: bigint; fail: bigint; p50: number | null; p95: number | null }[]>`
      SELECT count(*) FILTER (WHERE status = 'success') AS success,
             count(*) FILTER (WHERE status = 'fail') AS fail,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50,
             percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95
      FROM attempt
      WHERE endpoint_id = ${endpoint.id} AND id >= ${from}`,
    db.$queryRaw<{ code: number; count: bigint }[]>`
      SELECT response_status AS code, count(*) AS count
      FROM attempt
      WHERE endpoint_id = ${endpoint.id} AND id >= ${from}
      GROUP BY 1
      ORDER BY 2 DESC, 1`,
  ]);
  const t = totals[0];
  const success = Number(t?.success ?? 0);
  const fail = Number(t?.fail ?? 0);
  const round = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v));
  return {
    endpointId: endpoint.id,
    window,
    since: since.toISOString(),
    until: now.toISOString(),
    attempts: success + fail,
    success,
    fail,
    /** null without attempts in the window. */
    successRate: success + fail > 0 ? success / (success + fail) : null,
    /** Each answer's HTTP status with its count, most frequent first; 0 = no HTTP answer (timeout, refused, TLS…). */
    statusCodes: codes.map((c) => ({ code: c.code, count: Number(c.count) })),
    /** Milliseconds from sending the request to the end of the answer; null without attempts. */
    latencyMs: { p50: round(t?.p50), p95: round(t?.p95) },
  };
}
export type EndpointMetrics = Awaited<ReturnType<typeof endpointMetrics>>;
