import type { ReactNode } from "react";

export type Tone = "green" | "red" | "amber" | "slate" | "blue" | "purple";
const TONES: Record<Tone, string> = {
  green: "bg-green-50 text-green-800 ring-green-600/30",
  red: "bg-red-50 text-red-800 ring-red-600/30",
  amber: "bg-amber-50 text-amber-900 ring-amber-600/30",
  slate: "bg-slate-100 text-slate-700 ring-slate-500/30",
  blue: "bg-blue-50 text-blue-800 ring-blue-600/30",
  purple: "bg-purple-50 text-purple-800 ring-purple-600/30",
};

export function Badge({ tone = "slate", children, title }: { tone?: Tone; children: ReactNode; title?: string }) {
  return (
    <span title={title} className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[tone]}`}>
      {children}
    </span>
  );
}
