/** One server-sent event: its name (`message` when unnamed) and its data lines joined. */
export type StreamEvent = { event: string; data: string };

/**
 * Reads a text/event-stream body and calls `onEvent` for each event until it ends. Shared by the
 * portal's and the console's API clients, which read task progress with their own credentials
 * (EventSource cannot send a bearer header).
 */
export async function readEventStream(body: NonNullable<Response["body"]>, onEvent: (event: StreamEvent) => void): Promise<void> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += value;
    let cut: number;
    while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
      let event = "message";
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length > 0) onEvent({ event, data: data.join("\n") });
    }
  }
}
