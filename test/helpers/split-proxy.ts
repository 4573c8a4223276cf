import { createServer, request, type IncomingMessage } from "node:http";
import type { AddressInfo, Socket } from "node:net";

// A tiny HTTP reverse proxy on loopback standing in for a load balancer in front of several web
// processes: `route(req)` picks the upstream of each request. `drop()` cuts every connection
// through it, and `refuse(ms)` refuses new ones for a while (a network outage between a client
// and Herald).

export async function startSplitProxy(route: (req: IncomingMessage) => string) {
  const sockets = new Set<Socket>();
  let refuseUntil = 0;
  const seen: { method: string; path: string; upstream: string }[] = [];
  const server = createServer((req, res) => {
    if (Date.now() < refuseUntil) return void req.socket.destroy();
    const upstream = route(req);
    seen.push({ method: req.method ?? "", path: req.url ?? "", upstream });
    const target = new URL(req.url ?? "/", upstream);
    const out = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on("error", () => res.destroy());
    res.on("close", () => out.destroy());
    req.pipe(out);
  });
  server.on("connection", (s: Socket) => {
    if (Date.now() < refuseUntil) return void s.destroy();
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    /** Cuts every open connection (streams included) and refuses new ones for `refuseMs`. */
    drop(refuseMs = 0) {
      refuseUntil = Date.now() + refuseMs;
      for (const s of sockets) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
