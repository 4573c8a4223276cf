import type { ReactNode } from "react";
import { parseInline, parseMarkdown, type Inline } from "@/lib/portal/markdown";

// Renders the safe Markdown subset of lib/portal/markdown.ts as React elements: no
// dangerouslySetInnerHTML anywhere, so text can never become markup.

function inline(nodes: Inline[]): ReactNode[] {
  return nodes.map((n, i) => {
    switch (n.type) {
      case "text":
        return n.text;
      case "code":
        return (
          <code key={i} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800">
            {n.text}
          </code>
        );
      case "strong":
        return <strong key={i}>{inline(n.children)}</strong>;
      case "em":
        return <em key={i}>{inline(n.children)}</em>;
      case "link":
        // A new tab: the portal may be embedded, and leaving it would drop the frame's session.
        return (
          <a key={i} href={n.href} target="_blank" rel="noopener noreferrer" className="text-blue-800 underline">
            {inline(n.children)}
          </a>
        );
    }
  });
}

/** One line of Markdown, for places that hold a phrase (no paragraphs, no links inside buttons). */
export function MarkdownInline({ text, links = true }: { text: string; links?: boolean }) {
  const nodes = parseInline(text);
  return <>{inline(links ? nodes : withoutLinks(nodes))}</>;
}

/** A link's text in place of the link, at every depth (`**[docs](…)**` too). */
function withoutLinks(nodes: Inline[]): Inline[] {
  return nodes.flatMap((n): Inline[] => {
    if (n.type === "link") return withoutLinks(n.children);
    if (n.type === "strong" || n.type === "em") return [{ ...n, children: withoutLinks(n.children) }];
    return [n];
  });
}

export function Markdown({ text, className = "" }: { text: string; className?: string }) {
  return (
    <div className={`space-y-2 ${className}`.trim()}>
      {parseMarkdown(text).map((b, i) =>
        b.type === "paragraph" ? (
          <p key={i}>{inline(b.children)}</p>
        ) : (
          <ul key={i} className="list-disc space-y-0.5 pl-5">
            {b.items.map((item, j) => (
              <li key={j}>{inline(item)}</li>
            ))}
          </ul>
        ),
      )}
    </div>
  );
}
