import type { IncomingMessage, ServerResponse } from "node:http";

// Runs one of our web-standard route handlers ((Request, context) => Response) straight from
// Node's http server, for the few hot paths server.ts serves without going through Next.js.

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Stops delivering the request body and throws the rest of it away as it arrives. */
function discardRest(req: IncomingMessage): void {
  req.removeAllListeners("data");
  if (!req.complete) req.resume();
}

/**
 * The request body as a web stream, pulled on demand. Cancelling it (the handler refusing an
 * oversized body) discards the rest instead of destroying the socket, so the client still gets
 * the 413; a body the handler never read is discarded once the answer is sent.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.pause();
        req.on("data", (chunk: Buffer) => {
          if (!open) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.on("end", () => {
          if (open) controller.close();
          open = false;
        });
        req.on("error", (err) => {
          if (open) controller.error(err);
          open = false;
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        open = false;
        discardRest(req);
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

export function toWebRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
    method: req.method,
    headers,
    ...(hasBody ? { body: bodyStream(req), duplex: "half" } : {}),
  });
}

export async function sendWebResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") headers[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  if (body) headers["content-length"] = String(body.length);
  res.writeHead(response.status, headers).end(body);
  discardRest(req);
}

export async function serveWithHandler(
  req: IncomingMessage,
  res: ServerResponse,
  handler: Handler,
  params: Record<string, string>,
): Promise<void> {
  await sendWebResponse(req, res, await handler(toWebRequest(req), { params: Promise.resolve(params) }));
}
