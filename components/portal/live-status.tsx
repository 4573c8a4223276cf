import { Button } from "../ui/button";
import { Notice } from "../ui/notice";

/**
 * Whether what the page shows is current: "Updates live" while refreshes succeed, "Updates
 * paused, retrying" (with the time of the last good data) while they fail, e.g. when Herald is
 * unreachable. Announced politely to screen readers when it changes.
 */
export function LiveStatus({ stale, updatedAt, label = "Updates live" }: { stale: boolean; updatedAt: number; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-1.5 text-xs text-slate-600">
      <span aria-hidden className={`h-2 w-2 rounded-full ${stale ? "bg-amber-500" : "bg-green-600"}`} />
      {stale ? (
        <>
          Updates paused, retrying{updatedAt > 0 ? <> · shown as of {new Date(updatedAt).toLocaleTimeString()}</> : null}
        </>
      ) : (
        label
      )}
    </span>
  );
}

/** A failed load in plain words, with a way to ask again. */
export function LoadError({ title, error, onRetry }: { title: string; error: Error | null; onRetry: () => void }) {
  if (!error) return null;
  return (
    <Notice tone="error" title={title}>
      <p>{error.message}</p>
      <Button size="sm" className="mt-2" onClick={onRetry}>
        Try again
      </Button>
    </Notice>
  );
}
