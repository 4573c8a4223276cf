type Bucket = { success: number; fail: number };

/** A day without attempts: what an endpoint with no health row shows (24 hourly buckets). */
export const EMPTY_DAY: Bucket[] = Array.from({ length: 24 }, () => ({ success: 0, fail: 0 }));

/** Hourly attempts as stacked bars (green ok, red failed); an image with a text alternative. */
export function Sparkline({
  buckets,
  label,
  width = 120,
  height = 28,
}: {
  buckets: Bucket[];
  label: string;
  width?: number;
  height?: number;
}) {
  const max = Math.max(1, ...buckets.map((b) => b.success + b.fail));
  const w = width / Math.max(1, buckets.length);
  return (
    <svg
      role="img"
      aria-label={label}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      className="block"
    >
      <title>{label}</title>
      <rect x={0} y={height - 1} width={width} height={1} className="fill-slate-200" />
      {buckets.map((b, i) => {
        const ok = (b.success / max) * (height - 2);
        const bad = (b.fail / max) * (height - 2);
        return (
          <g key={i}>
            <rect
              x={i * w + 0.5}
              y={height - 1 - ok}
              width={Math.max(1, w - 1)}
              height={ok}
              className="fill-green-600"
            />
            <rect
              x={i * w + 0.5}
              y={height - 1 - ok - bad}
              width={Math.max(1, w - 1)}
              height={bad}
              className="fill-red-600"
            />
          </g>
        );
      })}
    </svg>
  );
}
