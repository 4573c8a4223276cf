// Display helpers shared by the portal's components.

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return d.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

export function relativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "—";
  const s = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(s);
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  if (abs < 60) return rtf.format(s, "second");
  if (abs < 3600) return rtf.format(Math.round(s / 60), "minute");
  if (abs < 86400) return rtf.format(Math.round(s / 3600), "hour");
  return rtf.format(Math.round(s / 86400), "day");
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${+(seconds / 60).toFixed(1)} min`;
  if (seconds <= 86400) return `${+(seconds / 3600).toFixed(1)} h`;
  const days = +(seconds / 86400).toFixed(1);
  return `${days} day${days === 1 ? "" : "s"}`;
}

export function percent(rate: number | null): string {
  if (rate === null) return "—";
  return `${(rate * 100).toFixed(rate === 1 || rate === 0 ? 0 : 1)}%`;
}

/** JSON pretty-printed when it parses, the text as is otherwise. */
export function prettyBody(text: string | null | undefined): string {
  if (text === null || text === undefined || text === "") return "";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function statusCodeLabel(code: number | null | undefined): string {
  if (code === null || code === undefined) return "—";
  if (code === 0) return "No response";
  return String(code);
}
