import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { connect, type AddressInfo } from "node:net";

// A real webhook receiver on loopback that records exactly what arrived.

export type Received = { method: string; path: string; headers: Record<string, string>; body: string; at: number };
export type Responder = (req: Received, res: ServerResponse) => void | Promise<void>;
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export async function startReceiver(respond: Responder = (_r, res) => void res.writeHead(200).end("ok"), host = "127.0.0.1") {
  const received: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r: Received = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")])),
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      received.push(r);
      for (const w of waiters.filter((w) => received.length >= w.n)) w.resolve();
      void Promise.resolve(respond(r, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/webhook`,
    port,
    received,
    /** Resolves once `n` requests have arrived (rejects after timeoutMs). */
    waitFor(n: number, timeoutMs = 20_000) {
      if (received.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`receiver got ${received.length}/${n} requests in ${timeoutMs}ms`)), timeoutMs);
        waiters.push({ n, resolve: () => (clearTimeout(t), resolve()) });
      });
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** Receivers a suite starts as it goes (`start`), all closed by one `closeAll` in its afterAll. */
export function receiverPool() {
  const open: Receiver[] = [];
  return {
    start: async (...args: Parameters<typeof startReceiver>) => {
      const r = await startReceiver(...args);
      open.push(r);
      return r;
    },
    closeAll: () => Promise.all(open.map((r) => r.close())),
  };
}

/**
 * A loopback port whose TCP handshakes never complete: a child process listens with a backlog
 * of one and never accepts (its event loop is blocked), and `start` fills the accept queue
 * itself (Linux keeps backlog + 1 connections there). The kernel then drops every further SYN,
 * so a client's connect hangs until its own timeout.
 */
export async function startUnacceptingListener() {
  const child = spawn(
    process.execPath,
    [
      "-e",
      `const s = require("node:net").createServer().listen({ port: 0, host: "127.0.0.1", backlog: 1 }, () => {
         require("node:fs").writeSync(1, s.address().port + "\\n");
         Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); // never accept
       });`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const [line] = (await once(child.stdout, "data")) as [Buffer];
  const port = Number(line.toString().trim());
  const fillers = [connect(port, "127.0.0.1"), connect(port, "127.0.0.1")];
  await Promise.all(fillers.map((f) => once(f, "connect")));
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    close: () => {
      for (const f of fillers) f.destroy();
      child.kill("SIGKILL");
    },
  };
}
