import type { IncomingMessage } from "node:http";

// The address a request came from, for the sign-in rate limit. server.ts writes it into
// CLIENT_ADDRESS_HEADER on every request, replacing whatever the client sent, so route code can
// trust the header: the connection's address, or (HERALD_TRUST_PROXY) the last X-Forwarded-For
// entry, the one the proxy in front of Herald appended.

export const CLIENT_ADDRESS_HEADER = "x-herald-client-address";

export function clientAddressOf(req: IncomingMessage, trustProxy: boolean): string | null {
  if (trustProxy) {
    const xff = req.headers["x-forwarded-for"];
    const last = (Array.isArray(xff) ? xff.join(",") : (xff ?? "")).split(",").map((s) => s.trim()).filter(Boolean).pop();
    if (last) return last;
  }
  return req.socket.remoteAddress ?? null;
}

/** Sets the header on a request entering the web server (server.ts). */
export function stampClientAddress(req: IncomingMessage, trustProxy: boolean): void {
  const address = clientAddressOf(req, trustProxy);
  if (address) req.headers[CLIENT_ADDRESS_HEADER] = address;
  else delete req.headers[CLIENT_ADDRESS_HEADER];
}
