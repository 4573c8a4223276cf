import { spawn, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../scripts/lib/isolated-run.mjs";
import { createTenant, type Tenant } from "./helpers/tenant";
import { verifySnippets, type SnippetAlgorithm, type SnippetLanguage } from "@/lib/portal/verify-snippets";

// The portal's Node and Python verification snippets, run exactly as shown on the page (same
// text, from verify-snippets.ts) as the receiving server of a real endpoint: a real delivery from
// the worker must verify (the attempt records the snippet's 204), and forged, stale or
// re-serialised requests must be refused.

const RUNTIMES: Record<"node" | "python", string[]> = { node: [process.execPath], python: ["python3"] };
const children: ChildProcess[] = [];

async function listening(port: number) {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, "127.0.0.1", () => (s.end(), resolve(true)));
      s.on("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`snippet server did not listen on ${port}`);
}

async function runSnippet(language: "node" | "python", algorithm: SnippetAlgorithm, secret: string, port: number) {
  const snippet = verifySnippets({ algorithm }).find((s) => s.language === language)!;
  const dir = mkdtempSync(path.join(tmpdir(), "herald-snippet-"));
  const file = path.join(dir, snippet.filename);
  writeFileSync(file, snippet.code);
  const child = spawn(RUNTIMES[language][0]!, [file], { env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  await listening(port);
  return { output: () => output };
}

async function post(port: number, headers: Record<string, string>, body: string) {
  const res = await fetch(`http://127.0.0.1:${port}/webhook`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  return { status: res.status, text: await res.text() };
}

describe("verification snippets against real deliveries", () => {
  let t: Tenant;
  let appId: string;

  beforeAll(async () => {
    t = await createTenant("snippets");
    appId = (await t.api("POST", "/app", { name: "Snippets" })).body.id;
    await t.api("POST", "/event-type", { name: "order.paid", description: "paid" });
  });
  afterAll(() => {
    for (const c of children) c.kill("SIGTERM");
  });

  const cases: [SnippetLanguage & ("node" | "python"), SnippetAlgorithm][] = [
    ["node", "hmac_sha256"],
    ["python", "hmac_sha256"],
    ["node", "ed25519"],
  ];

  for (const [language, algorithm] of cases) {
    it(`${language} (${algorithm}) verifies a real delivery and refuses forgeries`, async () => {
      const port = await freePort();
      const ep = await t.api("POST", `/app/${appId}/endpoint`, {
        url: `http://127.0.0.1:${port}/webhook`,
        signing: algorithm,
        filterTypes: ["order.paid"],
        channels: [`${language}-${algorithm}`],
      });
      expect(ep.status, JSON.stringify(ep.body)).toBe(201);
      const key = (await t.api("GET", `/app/${appId}/endpoint/${ep.body.id}/secret`)).body.key as string;
      const server = await runSnippet(language, algorithm, key, port);

      // A real delivery, with a payload whose re-serialisation would differ (spacing, unicode).
      const msg = await t.api("POST", `/app/${appId}/msg`, {
        eventType: "order.paid",
        payload: { order_id: "ord_snippet", amount: 4200, note: "ünïcode ✓", nested: { a: [1, 2.5, true] } },
        channels: [`${language}-${algorithm}`],
      });
      expect(msg.status).toBe(202);
      let attempt: any = null;
      for (let i = 0; i < 80 && !attempt; i++) {
        const list = await t.api("GET", `/app/${appId}/attempt/msg/${msg.body.id}`);
        attempt = list.body.data?.[0] ?? null;
        if (!attempt) await new Promise((r) => setTimeout(r, 250));
      }
      expect(attempt, "the worker made no attempt").not.toBeNull();
      expect(attempt.responseStatusCode, `${server.output()}\n${attempt.response}`).toBe(204);
      expect(attempt.endpointId).toBe(ep.body.id);
      expect(server.output()).toContain(`verified ${msg.body.id}`);

      // Replays of what was captured, altered the ways attackers and frameworks alter them.
      const sent = attempt.request as { headers: Record<string, string>; body: string };
      const h = { "webhook-id": sent.headers["webhook-id"]!, "webhook-timestamp": sent.headers["webhook-timestamp"]!, "webhook-signature": sent.headers["webhook-signature"]! };
      expect((await post(port, h, sent.body)).status).toBe(204); // the genuine request verifies on its own
      expect((await post(port, h, sent.body.replace("4200", "4201"))).status).toBe(400); // tampered body
      expect((await post(port, h, JSON.stringify(JSON.parse(sent.body), null, 1))).status).toBe(400); // parsed and re-serialised
      expect((await post(port, { ...h, "webhook-id": "msg_other" }, sent.body)).status).toBe(400); // id swapped
      const { "webhook-signature": _sig, ...unsigned } = h;
      expect((await post(port, unsigned, sent.body)).status).toBe(400); // unsigned
      // A stale request, validly signed with the endpoint's key (HMAC only: we hold the secret).
      if (algorithm === "hmac_sha256") {
        const old = String(Math.floor(Date.now() / 1000) - 600);
        const sig = createHmac("sha256", Buffer.from(key.slice(6), "base64")).update(`${h["webhook-id"]}.${old}.${sent.body}`).digest("base64");
        const stale = await post(port, { ...h, "webhook-timestamp": old, "webhook-signature": `v1,${sig}` }, sent.body);
        expect(stale.status).toBe(400);
        expect(stale.text).toMatch(/timestamp/);
        const fresh = String(Math.floor(Date.now() / 1000));
        const good = createHmac("sha256", Buffer.from(key.slice(6), "base64")).update(`${h["webhook-id"]}.${fresh}.${sent.body}`).digest("base64");
        expect((await post(port, { ...h, "webhook-timestamp": fresh, "webhook-signature": `v1,bogus v1,${good}` }, sent.body)).status).toBe(204);
      }
    });
  }
});
