import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "./helpers/stack";
import { startSplitProxy } from "./helpers/split-proxy";
import { receiverPool, type Received } from "./helpers/receiver";
import { EVENT_TYPE, makeApp, publish, waitUntil } from "./helpers/delivery";

// `herald listen` end to end, as an integrator runs it: the CLI is a child process (bin/herald.mjs)
// opened with a portal link, talking to Herald through a load balancer that sends its stream to
// one web process and everything else (the answers) to another, while the worker is a third
// process. It forwards real deliveries to a loopback receiver and reports the local answers.

const ROOT = path.resolve(import.meta.dirname, "..");
const REQUEST_TIMEOUT_MS = 3_000;

type Cli = { child: ChildProcess; output: () => string; waitFor: (re: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray> };

function runCli(args: string[], script = path.join(ROOT, "bin/herald.mjs")): Cli {
  // Run from an empty folder: the CLI must need nothing but Node.js.
  const child = spawn(process.execPath, [script, "listen", ...args], { stdio: ["ignore", "pipe", "pipe"], cwd: tmpdir() });
  let text = "";
  child.stdout.on("data", (b: Buffer) => (text += b.toString("utf8")));
  child.stderr.on("data", (b: Buffer) => (text += b.toString("utf8")));
  return {
    child,
    output: () => text,
    async waitFor(re, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = re.exec(text);
        if (m) return m;
        if (Date.now() > deadline) throw new Error(`herald listen never printed ${re}; it printed:\n${text}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

describe("herald listen", () => {
  let stack: Stack;
  let webB: string;
  let proxy: Awaited<ReturnType<typeof startSplitProxy>>;
  const receivers = receiverPool();
  let cli: Cli;
  let appId: string;
  let endpointId: string;
  let secret: string;
  // What the local server answers next: a status, or a delay in ms before a 200.
  const script: (number | { delayMs: number })[] = [];
  let receiver: Awaited<ReturnType<typeof receivers.start>>;
  const downloads = mkdtempSync(path.join(tmpdir(), "herald-cli-"));

  /** Attempts of a message to the CLI's endpoint, newest first. */
  const attemptsOf = (msgId: string) =>
    stack.api("GET", `/app/${appId}/attempt/msg/${msgId}`).then((r) => (r.body.data as any[]).filter((a) => a.endpointId === endpointId));

  beforeAll(async () => {
    stack = await startStack({ workerEnv: { HERALD_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } });
    stack.startWorker();
    webB = await stack.addWeb();
    proxy = await startSplitProxy((req) => (req.method === "GET" && /\/listen\/ep_/.test(req.url ?? "") ? stack.baseUrl : webB));
    receiver = await receivers.start(async (_r: Received, res) => {
      const next = script.shift() ?? 200;
      if (typeof next === "object") {
        await new Promise((r) => setTimeout(r, next.delayMs));
        return void res.writeHead(200, { "x-local": "slow" }).end("slow ok");
      }
      await new Promise((r) => setTimeout(r, 150)); // a measurable local duration
      res.writeHead(next, { "content-type": "text/plain", "x-local": "yes" }).end(`local ${next}`);
    });
    appId = await makeApp(stack.api);
    const link = await stack.api("POST", `/auth/app-portal-access/${appId}`, {});
    expect(link.status).toBe(200);
    // The CLI as an integrator gets it: downloaded from the Herald server, run on its own.
    const served = await fetch(`${stack.baseUrl}/cli/herald.mjs`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toMatch(/^text\/javascript/);
    const source = await served.text();
    expect(source).toBe(readFileSync(path.join(ROOT, "bin/herald.mjs"), "utf8"));
    writeFileSync(path.join(downloads, "herald.mjs"), source);
    cli = runCli(["--url", proxy.url, "--token", link.body.url, "--forward-to", receiver.url, "--events", EVENT_TYPE], path.join(downloads, "herald.mjs"));
    endpointId = (await cli.waitFor(/Endpoint: (ep_[0-9a-z]+)/))[1]!;
    secret = (await cli.waitFor(/Signing secret: (whsec_\S+)/))[1]!;
    await cli.waitFor(/Ready: forwarding to /);
    // Fast retries, so the suite sees them.
    const patched = await stack.api("PATCH", `/app/${appId}/endpoint/${endpointId}`, { retrySchedule: [1, 1, 1, 1, 1, 1, 1] });
    expect(patched.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    cli?.child.kill("SIGINT");
    await proxy?.close();
    await receivers.closeAll();
    await stack?.close();
    rmSync(downloads, { recursive: true, force: true });
  });

  it("forwards a published message with a signature that verifies with the printed secret, and records the local answer", async () => {
    const msgId = await publish(stack.api, appId, { orderId: "o-1", amount: 4200 });
    await receiver.waitFor(1);
    const got = receiver.received[0]!;
    expect(got.headers["webhook-id"]).toBe(msgId);
    const event = new Webhook(secret).verify(got.body, got.headers) as { id: string; type: string; data: unknown };
    expect(event).toMatchObject({ id: msgId, type: EVENT_TYPE, data: { orderId: "o-1", amount: 4200 } });
    // Only what Herald sends: fetch would add browser-style headers production never sends.
    for (const h of ["accept", "accept-language", "sec-fetch-mode", "accept-encoding"]) expect(got.headers[h], h).toBeUndefined();
    expect(got.headers["user-agent"]).toMatch(/^Herald-Webhooks\//);

    const attempts = await waitUntil("the attempt", () => attemptsOf(msgId), (a) => a.length >= 1);
    expect(attempts).toHaveLength(1);
    const attempt = attempts[0];
    expect(attempt.responseStatusCode).toBe(200);
    expect(attempt.response).toBe("local 200");
    expect(attempt.responseHeaders).toMatchObject({ "x-local": "yes", "content-type": "text/plain" });
    expect(attempt.responseDurationMs).toBeGreaterThanOrEqual(150);
    expect(attempt.status).toBe(0); // success
    expect(attempt.url).toBe(`herald-listen:${endpointId}`);
    // The stream was held by one web process and the answer went through the other.
    expect(proxy.seen.some((s) => s.method === "GET" && s.upstream === stack.baseUrl && s.path.includes(`/listen/${endpointId}`))).toBe(true);
    expect(proxy.seen.some((s) => s.method === "POST" && s.upstream === webB && s.path.endsWith(`/listen/${endpointId}/answer`))).toBe(true);
    expect(cli.output()).toMatch(new RegExp(`→ ${EVENT_TYPE} ${msgId}  200 in \\d+ ms`));
  });

  it("an answer counts only for the endpoint the delivery went to", async () => {
    // A second listener on the same endpoint learns the delivery's id from its own stream, then
    // tries to answer it through another endpoint of the application.
    const other = await stack.api("POST", `/app/${appId}/listen`, { uid: "someone-else" });
    expect(other.status).toBe(201);
    const ac = new AbortController();
    const stream = await fetch(`${stack.baseUrl}/api/v1/app/${appId}/listen/${endpointId}`, {
      headers: { authorization: `Bearer ${stack.apiKey}` },
      signal: ac.signal,
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    const nextDelivery = async () => {
      for (;;) {
        const m = /event: delivery\ndata: (.*)\n\n/.exec(text);
        if (m) return JSON.parse(m[1]!) as { id: string };
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        text += value;
      }
    };
    script.push({ delayMs: 1_000 });
    const msgId = await publish(stack.api, appId, { orderId: "o-forged", amount: 9 });
    const { id } = await nextDelivery();
    const forged = await stack.api("POST", `/app/${appId}/listen/${other.body.endpoint.id}/answer`, { id, status: 299, durationMs: 1 });
    expect(forged.status).toBe(204);
    const [attempt] = await waitUntil("the attempt", () => attemptsOf(msgId), (a) => a.length >= 1);
    expect(attempt.responseStatusCode).toBe(200);
    expect(attempt.response).toBe("slow ok");
    ac.abort();
    expect((await stack.api("DELETE", `/app/${appId}/endpoint/${other.body.endpoint.id}`)).status).toBe(204);
  });

  it("a local 500 is an attempt like any other: recorded and retried", async () => {
    const before = receiver.received.length;
    script.push(500);
    const msgId = await publish(stack.api, appId, { orderId: "o-2", amount: 1 });
    const attempts = await waitUntil("a failed attempt then a success", () => attemptsOf(msgId), (a) => a.length >= 2);
    const [second, first] = attempts; // newest first
    expect(first.responseStatusCode).toBe(500);
    expect(first.response).toBe("local 500");
    expect(first.status).toBe(2); // fail
    expect(second.responseStatusCode).toBe(200);
    const twice = receiver.received.slice(before).filter((r) => r.headers["webhook-id"] === msgId);
    expect(twice).toHaveLength(2);
    for (const r of twice) new Webhook(secret).verify(r.body, r.headers);
  });

  it("a dropped stream reconnects, and the delivery that was in flight is retried", async () => {
    const before = receiver.received.length;
    // The local server holds the request while the network between the CLI and Herald goes away
    // for longer than Herald waits for an answer.
    script.push({ delayMs: 500 });
    const msgId = await publish(stack.api, appId, { orderId: "o-3", amount: 2 });
    await receiver.waitFor(before + 1);
    proxy.drop(REQUEST_TIMEOUT_MS + 1_500);
    await cli.waitFor(/Stream lost/);
    await cli.waitFor(/Reconnected: forwarding to /, 30_000);
    const attempts = await waitUntil("the retry after the reconnect", () => attemptsOf(msgId), (a) => a.some((x: any) => x.responseStatusCode === 200), 30_000);
    const oldest = attempts[attempts.length - 1];
    expect(oldest.responseStatusCode).toBe(0);
    expect(["timeout", "refused"]).toContain(oldest.errorClass);
    const copies = receiver.received.slice(before).filter((r) => r.headers["webhook-id"] === msgId);
    expect(copies.length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it("with nobody listening, attempts fail as refused and are retried on the schedule", async () => {
    cli.child.kill("SIGINT");
    await cli.waitFor(/Stopped\. Nothing was removed: the endpoint ep_/);
    expect(cli.output()).toContain(`curl -X DELETE ${proxy.url}/api/v1/app/${appId}/endpoint/${endpointId}`);
    await new Promise((r) => setTimeout(r, 500)); // the web process takes the stream out of the presence set
    const msgId = await publish(stack.api, appId, { orderId: "o-4", amount: 3 });
    const attempts = await waitUntil("two refused attempts", () => attemptsOf(msgId), (a) => a.length >= 2, 20_000);
    for (const a of attempts) {
      expect(a.errorClass).toBe("refused");
      expect(a.errorMessage).toMatch(/no `herald listen` is connected/);
    }
    // Listening again (same name) reuses the endpoint and its secret, and what is due is delivered.
    const link = await stack.api("POST", `/auth/app-portal-access/${appId}`, {});
    cli = runCli(["--url", stack.baseUrl, "--token", link.body.token, "--forward-to", receiver.url, "--events", EVENT_TYPE]);
    expect((await cli.waitFor(/Endpoint: (ep_[0-9a-z]+)/))[1]).toBe(endpointId);
    expect((await cli.waitFor(/Signing secret: (whsec_\S+)/))[1]).toBe(secret);
    await waitUntil("the retry to reach the new listener", () => attemptsOf(msgId), (a) => a.some((x: any) => x.responseStatusCode === 200), 20_000);
  }, 60_000);
});
