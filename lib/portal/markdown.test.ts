import { describe, expect, it } from "vitest";
import { parseInline, parseMarkdown } from "./markdown";

describe("event description Markdown", () => {
  it("renders code, bold, emphasis and http(s) links", () => {
    expect(parseInline("Sent when `order.paid` is **final**, see [the docs](https://acme.example/docs) or _later_.")).toEqual([
      { type: "text", text: "Sent when " },
      { type: "code", text: "order.paid" },
      { type: "text", text: " is " },
      { type: "strong", children: [{ type: "text", text: "final" }] },
      { type: "text", text: ", see " },
      { type: "link", href: "https://acme.example/docs", children: [{ type: "text", text: "the docs" }] },
      { type: "text", text: " or " },
      { type: "em", children: [{ type: "text", text: "later" }] },
      { type: "text", text: "." },
    ]);
  });

  it("never produces HTML and drops links that are not http(s)", () => {
    expect(parseInline("<img src=x onerror=alert(1)>")).toEqual([{ type: "text", text: "<img src=x onerror=alert(1)>" }]);
    expect(parseInline("[click](javascript:alert(1))")).toEqual([{ type: "text", text: "click)" }]);
    expect(parseInline("[click](javascript:alert)")).toEqual([{ type: "text", text: "click" }]);
    expect(parseInline("[x](data:text/html;base64,PHA+)")).toEqual([{ type: "text", text: "x" }]);
    expect(parseInline("[x](//evil.example)")).toEqual([{ type: "text", text: "x" }]);
    // Nothing inside code is parsed.
    expect(parseInline("`**not bold** [a](https://a.example)`")).toEqual([{ type: "code", text: "**not bold** [a](https://a.example)" }]);
  });

  it("leaves snake_case names and lone asterisks alone", () => {
    expect(parseInline("invoice_legacy_sent costs 2 * 3")).toEqual([{ type: "text", text: "invoice_legacy_sent costs 2 * 3" }]);
  });

  it("splits paragraphs and lists", () => {
    expect(parseMarkdown("First line\nsame paragraph.\n\n- one\n- `two`")).toEqual([
      { type: "paragraph", children: [{ type: "text", text: "First line same paragraph." }] },
      { type: "list", items: [[{ type: "text", text: "one" }], [{ type: "code", text: "two" }]] },
    ]);
  });
});
