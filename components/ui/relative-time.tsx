import { formatTime, relativeTime } from "./format";

/** "3 minutes ago", with the exact time on hover (title) and for machines (dateTime). */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  return (
    <time dateTime={iso} title={formatTime(iso)} className={className}>
      {relativeTime(iso)}
    </time>
  );
}
