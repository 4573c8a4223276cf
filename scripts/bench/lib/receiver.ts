// The benchmarks' webhook receiver and their same-run reference. The receiver runs in a child
// process of its own (this file with --receiver <port>), so its CPU is not the bench client's.
// The reference is the raw undici loopback POST rate against it: machines of this kind differ
// in speed by 2× and more, and so does one machine from hour to hour, so a figure holds only as a
// ratio to this rate measured in the same run. bench.mjs runs only the .ts files directly in scripts/bench, not this one.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import { Agent, request } from "undici";

/** Requests per round of the raw undici reference. */
const RAW_N = 10_000;

/** What the receiver saw on one path (all /fast… paths are one group): counts, latencies, arrivals. */
export type Group = {
  count: number;
  first: number;
  last: number;
  latencies: number[];
  arrivals: Record<string, number>;
};

function runReceiver(port: number) {
  const groups = new Map<string, Group>();
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    if (req.method === "GET" && path === "/stats") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(Object.fromEntries(groups)));
      return;
    }
    if (req.method === "POST" && path === "/reset") {
      groups.clear();
      res.writeHead(204).end();
      return;
    }
    if (path.startsWith("/stuck")) return void req.resume(); // never answers
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const now = Date.now();
      res.writeHead(200).end("ok");
      const group = path.startsWith("/fast") ? "fast" : path;
      const g = groups.get(group) ?? { count: 0, first: now, last: now, latencies: [], arrivals: {} };
      g.count++;
      g.last = now;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { data?: { sentAt?: number; warm?: boolean } };
        const sentAt = body.data?.sentAt;
        if (typeof sentAt === "number" && body.data?.warm !== false) {
          g.latencies.push(now - sentAt);
          const id = req.headers["webhook-id"];
          if (typeof id === "string") g.arrivals[id] = now;
        }
      } catch {
        /* not JSON: counted only */
      }
      groups.set(group, g);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, "127.0.0.1", () => process.send?.("ready"));
}

/** Starts the receiver on `port` in a child process; resolves once it listens. */
export async function startReceiverProcess(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", import.meta.filename, "--receiver", String(port)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  await new Promise<void>((resolve) => child.once("message", () => resolve()));
  return child;
}

/** A webhook-like payload of about 300 bytes of JSON, for the reference. */
const RAW_PAYLOAD = {
  id: "msg_x",
  type: "order.paid",
  timestamp: new Date().toISOString(),
  version: 1,
  data: { orderId: "o_1", amount: 4200, pad: "x".repeat(200) },
};
export const RAW_BODY = JSON.stringify(RAW_PAYLOAD);

/**
 * The raw undici loopback POST rate to `url` (keep-alive, 10 in flight: the per-endpoint cap).
 * Single rounds of one run differed by up to ×1.8 (the receiver's JIT, the machine): a warm-up
 * round, then the median of three.
 */
export async function rawPostRate(url: string): Promise<{ rate: number; rounds: number[] }> {
  const raw = new Agent({ keepAliveTimeout: 30_000, connections: 10 });
  const round = async (n: number) => {
    let sent = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (sent < n) {
          sent++;
          const res = await request(url, {
            method: "POST",
            dispatcher: raw,
            // Serialised per request, as a client sending webhooks would (and as this reference
            // always has: its figures stay comparable with earlier runs).
            body: JSON.stringify(RAW_PAYLOAD),
            headers: { "content-type": "application/json" },
          });
          await res.body.dump();
        }
      }),
    );
    return n / ((performance.now() - start) / 1000);
  };
  try {
    await round(5_000);
    const rounds = [await round(RAW_N), await round(RAW_N), await round(RAW_N)].sort((a, b) => a - b);
    return { rate: rounds[1]!, rounds };
  } finally {
    await raw.close();
  }
}

const flag = process.argv.indexOf("--receiver");
if (flag >= 0) runReceiver(Number(process.argv[flag + 1]));
