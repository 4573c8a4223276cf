import type { MessageOut } from "@/lib/messages/serialize";
import { Button } from "../ui/button";
import { formatTime, relativeTime } from "../ui/format";

/** The latest messages of an event type, each offering its payload as the sample's. */
export function RecentMessages({
  eventType,
  messages,
  onUse,
}: {
  eventType: string;
  messages: MessageOut[];
  onUse: (message: MessageOut) => void;
}) {
  if (messages.length === 0)
    return <p className="text-xs text-slate-500">No {eventType} messages have been sent to this application yet.</p>;
  return (
    <ul className="divide-y divide-slate-200 rounded-md border border-slate-200" aria-label={`Recent ${eventType} messages`}>
      {messages.map((m) => {
        // After its retention period a message keeps its metadata but not its payload.
        const empty = Object.keys(m.payload).length === 0;
        const summary = JSON.stringify(m.payload);
        return (
          <li key={m.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-xs">
            <span className="min-w-0 flex-1">
              <span className="block font-mono text-slate-800">{m.id}</span>
              <span className="block text-slate-500">
                <time dateTime={m.timestamp} title={formatTime(m.timestamp)}>
                  {relativeTime(m.timestamp)}
                </time>
                {" · "}
                <span className="break-all font-mono">{empty ? "payload no longer kept" : summary.length > 80 ? `${summary.slice(0, 80)}…` : summary}</span>
              </span>
            </span>
            <Button size="sm" disabled={empty} onClick={() => onUse(m)} aria-label={`Use the payload of ${m.id}`}>
              Use this payload
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
