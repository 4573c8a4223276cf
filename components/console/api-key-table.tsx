import type { ApiKeyOut } from "@/lib/environments/api-keys";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { formatTime, relativeTime } from "../ui/format";

/** The environment's keys: never the key itself, only its first characters. */
export function ApiKeyTable({ keys, canRevoke, onRevoke }: { keys: ApiKeyOut[]; canRevoke: boolean; onRevoke: (k: ApiKeyOut) => void }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">API keys</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-500">
          <tr>
            <th scope="col" className="px-3 py-2">Name</th>
            <th scope="col" className="px-3 py-2">Key</th>
            <th scope="col" className="px-3 py-2">Created</th>
            <th scope="col" className="px-3 py-2">Last used</th>
            <th scope="col" className="px-3 py-2"><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {keys.map((k) => (
            <tr key={k.id} className={k.revokedAt ? "text-slate-400" : ""}>
              <td className="px-3 py-2 font-medium">{k.name}</td>
              <td className="px-3 py-2 font-mono text-xs">{k.prefix}…</td>
              <td className="px-3 py-2 text-xs">{formatTime(k.createdAt)}</td>
              <td className="px-3 py-2 text-xs" title={k.lastUsedAt ? formatTime(k.lastUsedAt) : undefined}>
                {k.lastUsedAt ? relativeTime(k.lastUsedAt) : "never"}
              </td>
              <td className="px-3 py-2 text-right">
                {k.revokedAt ? (
                  <Badge tone="slate" title={`Revoked ${formatTime(k.revokedAt)}`}>
                    Revoked
                  </Badge>
                ) : (
                  canRevoke && (
                    <Button size="sm" variant="danger" onClick={() => onRevoke(k)} aria-label={`Revoke ${k.name}`}>
                      Revoke
                    </Button>
                  )
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
