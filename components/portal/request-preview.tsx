import { CodeBlock } from "../ui/code-block";
import { prettyBody } from "../ui/format";

/** The exact HTTP request a sample event would be sent as. */
export function RequestPreview({ method, url, headers, body }: { method: string; url: string; headers: Record<string, string>; body: string }) {
  const headerText = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");
  return (
    <div className="space-y-3">
      <p className="break-all font-mono text-sm">
        <span className="font-semibold">{method}</span> {url}
      </p>
      <CodeBlock title="Headers" copyLabel="request headers" code={headerText} maxHeight="16rem" />
      <CodeBlock title="Body" copyLabel="request body" code={prettyBody(body)} />
    </div>
  );
}
