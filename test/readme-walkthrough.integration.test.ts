import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Webhook } from "svix";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, baseUrl, type Tenant } from "./helpers/tenant";
import { startReceiver, type Receiver } from "./helpers/receiver";
import { pollUntil } from "./helpers/sdk";

// The README's "Walkthrough (5 minutes)" must work as written: its shell blocks are taken from
// README.md and run with bash against the test server. The three variables the README sets
// (HERALD_URL, HERALD_API_KEY, RECEIVER_URL) come from the test instead; everything else runs
// verbatim, with curl made to fail on HTTP errors. The tenant gets what `npm run up` creates
// for the walkthrough to lean on: the demo application and its endpoint on a real receiver.

const README = path.resolve(import.meta.dirname, "../README.md");
const SET_BY_TEST = /^export (HERALD_URL|HERALD_API_KEY|RECEIVER_URL)=/;

function walkthroughScript(markdown: string): string {
  const start = markdown.indexOf("## Walkthrough (5 minutes)");
  if (start < 0) throw new Error("README.md has no '## Walkthrough (5 minutes)' section");
  const next = markdown.indexOf("\n## ", start + 1);
  const section = markdown.slice(start, next < 0 ? undefined : next);
  const blocks = [...section.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .join("\n")
    .split("\n")
    .filter((line) => !SET_BY_TEST.test(line))
    .join("\n");
}

describe("README walkthrough", () => {
  let t: Tenant;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTenant("readme");
    receiver = await startReceiver();
    // What npm run up's bootstrap makes: the demo application with its endpoint.
    expect((await t.api("POST", "/app", { name: "Demo customer", uid: "demo" })).status).toBe(201);
    expect((await t.api("POST", "/app/demo/endpoint", { url: receiver.url, uid: "demo-receiver", disabled: true })).status).toBe(201);
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it("runs verbatim, twice, and the event arrives signed", async () => {
    const script = walkthroughScript(readFileSync(README, "utf8"));
    expect(script).toContain("curl");
    const run = () =>
      spawnSync("bash", ["-c", `set -euo pipefail\ncurl() { command curl --fail-with-body "$@"; }\n${script}`], {
        env: { ...process.env, HERALD_URL: baseUrl(), HERALD_API_KEY: t.apiKey, RECEIVER_URL: receiver.url },
        encoding: "utf8",
        timeout: 60_000,
      });

    const first = run();
    expect(first.status, `${first.stdout}\n${first.stderr}`).toBe(0);
    const msgId = /published (msg_\w+)/.exec(first.stdout)?.[1];
    expect(msgId, first.stdout).toBeDefined();
    expect(first.stdout).toContain('"uid":"acme"');
    expect(first.stdout).toContain('"name":"invoice.paid"');
    expect(first.stdout).toContain('"invoiceId":"inv_1001"');

    // Running it again (the state npm run up keeps) works too.
    const second = run();
    expect(second.status, `${second.stdout}\n${second.stderr}`).toBe(0);

    // The deliveries arrive, signed with the secret the walkthrough gave the endpoint.
    await receiver.waitFor(2, 60_000);
    const secret = (await t.api("GET", "/app/demo/endpoint/demo-receiver/secret")).body.key as string;
    for (const req of receiver.received) expect(() => new Webhook(secret).verify(req.body, req.headers)).not.toThrow();
    expect(receiver.received.map((r) => r.headers["webhook-id"])).toContain(msgId);
    const attempts = await pollUntil(
      () => t.api("GET", `/app/acme/attempt/msg/${msgId}`),
      (r) => r.body.data?.length > 0,
    );
    expect(attempts.body.data[0]).toMatchObject({ msgId, status: 0, responseStatusCode: 200 });
  }, 120_000);
});
