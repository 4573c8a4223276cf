// A small Server-Sent Events client over fetch, as a browser's EventSource reads a stream:
// collects every event until the server ends the stream (or `maxMs` passes, then it aborts).

export type SseEvent = { event: string; data: string; id?: string };

export async function readSse(
  url: string,
  opts: { headers?: Record<string, string>; maxMs?: number; onEvent?: (e: SseEvent) => void } = {},
) {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), opts.maxMs ?? 60_000);
  const events: SseEvent[] = [];
  try {
    const res = await fetch(url, { headers: { accept: "text/event-stream", ...opts.headers }, signal: ctrl.signal });
    if (!res.ok || !res.body)
      return { status: res.status, contentType: res.headers.get("content-type"), events, body: await res.text() };
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += value;
      let sep: number;
      while ((sep = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, sep);
        buf = buf.slice(sep + 2);
        const e: SseEvent = { event: "message", data: "" };
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line.startsWith(":")) continue;
          const [field, ...rest] = line.split(":");
          const v = rest.join(":").replace(/^ /, "");
          if (field === "event") e.event = v;
          else if (field === "data") data.push(v);
          else if (field === "id") e.id = v;
        }
        if (data.length === 0) continue;
        e.data = data.join("\n");
        events.push(e);
        opts.onEvent?.(e);
      }
    }
    return { status: res.status, contentType: res.headers.get("content-type"), events, body: "" };
  } finally {
    clearTimeout(timer);
  }
}
