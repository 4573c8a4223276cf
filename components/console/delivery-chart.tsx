// Deliveries per hour over the last day, stacked by outcome, as plain SVG (no chart library).
// The numbers are also in a visually hidden table for screen readers.

export type HourBucket = { start: string; succeeded: number; failed: number; pending: number; sending: number; canceled: number };

const SERIES = [
  { key: "succeeded", label: "Succeeded", color: "#15803d" },
  { key: "failed", label: "Failed (dead)", color: "#b91c1c" },
  { key: "pending", label: "Pending / retrying", color: "#d97706" },
  { key: "sending", label: "Sending", color: "#2563eb" },
  { key: "canceled", label: "Canceled", color: "#64748b" },
] as const;

const W = 720;
const H = 180;
const PAD = { top: 10, right: 8, bottom: 22, left: 36 };

function hourLabel(iso: string) {
  return new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

export function DeliveryChart({ hours, title }: { hours: HourBucket[]; title: string }) {
  const totals = hours.map((h) => SERIES.reduce((n, s) => n + h[s.key], 0));
  const max = Math.max(1, ...totals);
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, hours.length);
  const barW = Math.max(2, slot * 0.7);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  return (
    <figure className="space-y-2">
      <figcaption className="text-sm font-medium text-slate-800">{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-label={`${title}: ${totals.reduce((a, b) => a + b, 0)} deliveries`}>
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(max * f)} y2={y(max * f)} stroke="#e2e8f0" />
            <text x={PAD.left - 6} y={y(max * f) + 4} textAnchor="end" fontSize="10" fill="#64748b">
              {Math.round(max * f)}
            </text>
          </g>
        ))}
        {hours.map((h, i) => {
          let acc = 0;
          const x = PAD.left + i * slot + (slot - barW) / 2;
          return (
            <g key={h.start}>
              <title>{`${hourLabel(h.start)}: ${SERIES.map((s) => `${h[s.key]} ${s.label.toLowerCase()}`).join(", ")}`}</title>
              {SERIES.map((s) => {
                const v = h[s.key];
                if (v === 0) return null;
                const top = y(acc + v);
                const height = y(acc) - top;
                acc += v;
                return <rect key={s.key} x={x} y={top} width={barW} height={Math.max(1, height)} fill={s.color} />;
              })}
              {i % 4 === 0 && (
                <text x={x + barW / 2} y={H - 6} textAnchor="middle" fontSize="10" fill="#64748b">
                  {hourLabel(h.start)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <ul className="flex flex-wrap gap-3 text-xs text-slate-600" aria-hidden>
        {SERIES.map((s) => (
          <li key={s.key} className="flex items-center gap-1">
            <span className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: s.color }} />
            {s.label}
          </li>
        ))}
      </ul>
      <table className="sr-only">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">Hour</th>
            {SERIES.map((s) => (
              <th key={s.key} scope="col">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {hours.map((h) => (
            <tr key={h.start}>
              <th scope="row">{hourLabel(h.start)}</th>
              {SERIES.map((s) => (
                <td key={s.key}>{h[s.key]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** A horizontal bar of outcome shares (one row per period). */
export function OutcomeBar({ counts, label }: { counts: Omit<HourBucket, "start">; label: string }) {
  const total = SERIES.reduce((n, s) => n + counts[s.key], 0);
  return (
    <div>
      <svg viewBox="0 0 100 6" preserveAspectRatio="none" className="h-3 w-full overflow-hidden rounded" role="img" aria-label={`${label}: ${SERIES.map((s) => `${counts[s.key]} ${s.label.toLowerCase()}`).join(", ")}`}>
        {total === 0 ? (
          <rect x={0} y={0} width={100} height={6} fill="#e2e8f0" />
        ) : (
          (() => {
            let x = 0;
            return SERIES.map((s) => {
              const w = (counts[s.key] / total) * 100;
              const r = <rect key={s.key} x={x} y={0} width={w} height={6} fill={s.color} />;
              x += w;
              return r;
            });
          })()
        )}
      </svg>
    </div>
  );
}
