// A deliberately small Markdown subset for event-type descriptions, parsed to a tree that the
// portal renders as React elements (components/ui/markdown.tsx). Nothing here ever becomes raw
// HTML: "<b>" stays the text "<b>". Links are kept only for http(s) URLs; any other scheme
// (javascript:, data:, …) leaves the link text as plain text.
//
// Supported: paragraphs (blank line), "- " / "* " lists, `code`, **bold**, *em* / _em_, [text](url).

export type Inline =
  | { type: "text"; text: string }
  | { type: "code"; text: string }
  | { type: "strong"; children: Inline[] }
  | { type: "em"; children: Inline[] }
  | { type: "link"; href: string; children: Inline[] };

export type Block = { type: "paragraph"; children: Inline[] } | { type: "list"; items: Inline[][] };

const MAX_INPUT = 10_000;

export function safeHref(raw: string): string | null {
  try {
    const u = new URL(raw);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}

// Order matters: code first (nothing inside code is parsed), then links, bold, emphasis.
const TOKEN = /`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|\*\*(.+?)\*\*|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])/;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let rest = text;
  while (rest.length > 0) {
    const m = TOKEN.exec(rest);
    if (!m) {
      out.push({ type: "text", text: rest });
      break;
    }
    if (m.index > 0) out.push({ type: "text", text: rest.slice(0, m.index) });
    const [whole, code, linkText, linkHref, strong, em1, em2] = m;
    if (code !== undefined) out.push({ type: "code", text: code });
    else if (linkText !== undefined) {
      const href = safeHref(linkHref!);
      const children = parseInline(linkText);
      if (href) out.push({ type: "link", href, children });
      else out.push(...children);
    } else if (strong !== undefined) out.push({ type: "strong", children: parseInline(strong) });
    else out.push({ type: "em", children: parseInline((em1 ?? em2)!) });
    rest = rest.slice(m.index + whole.length);
  }
  // Merge neighbouring text runs.
  return out.reduce<Inline[]>((acc, n) => {
    const last = acc[acc.length - 1];
    if (n.type === "text" && last?.type === "text") last.text += n.text;
    else acc.push(n);
    return acc;
  }, []);
}

export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  const chunks = source.slice(0, MAX_INPUT).replace(/\r\n?/g, "\n").split(/\n\s*\n/);
  for (const chunk of chunks) {
    const lines = chunk.split("\n").filter((l) => l.trim() !== "");
    if (lines.length === 0) continue;
    if (lines.every((l) => /^\s*[-*]\s+/.test(l))) {
      blocks.push({ type: "list", items: lines.map((l) => parseInline(l.replace(/^\s*[-*]\s+/, "").trim())) });
    } else {
      blocks.push({ type: "paragraph", children: parseInline(lines.map((l) => l.trim()).join(" ")) });
    }
  }
  return blocks;
}
