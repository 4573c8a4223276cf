// The demo started by `npm run up` (HERALD_DEMO=0 turns it off), so the demo portal link opens
// a portal that is populated and alive:
// - a webhook receiver on loopback for the demo endpoints (lib/demo/ensure-demo.ts): it verifies
//   every signature (HMAC on /webhook, ed25519 on /orders) and answers like a real integration:
//   mostly 2xx, now and then a 503 with Retry-After (retried, so the log shows retries) and
//   rarely a 422 (not retryable: dead-lettered, so Failures has something to show);
// - a publisher that sends the demo application a burst of sample events as soon as it exists,
//   then one every few seconds.
import { createServer } from "node:http";
import { verify as edVerify } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { db } from "../lib/db";
import { logger } from "../lib/logger";
import { DEMO_APP_UID, DEMO_ENDPOINTS } from "../lib/demo/ensure-demo";
import { DEMO_EVENT_TYPES } from "../lib/demo/catalog";
import { examplePayload } from "../lib/event-types/example-payload";
import { publishMessage } from "../lib/messages/publish-message";
import { visibleSecret } from "../lib/endpoints/endpoint-secrets";
import { ed25519PublicKey } from "../lib/signing/secrets";

const PUBLISH_EVERY_MS = 8_000;
const FIRST_BURST = 6;
const WAIT_FOR_APP_MS = 1_000;
const BUSY_RATE = 0.12;
const REJECT_RATE = 0.03;
const TOLERANCE_S = 300;

const flag = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const port = Number(flag("--port") ?? 3001);
// --app <id>: a given application (tests); default: the demo application of the default
// environment, the one scripts/bootstrap.ts sets up (the oldest environment).
const pinnedApp = flag("--app");

async function demoApp() {
  if (pinnedApp) return db.application.findUnique({ where: { id: pinnedApp } });
  const environment = await db.environment.findFirst({ orderBy: { id: "asc" }, select: { id: true } });
  return environment ? db.application.findFirst({ where: { environmentId: environment.id, uid: DEMO_APP_UID, internal: false } }) : null;
}

/** Verifies a delivery to one of the demo endpoints with that endpoint's current key. */
async function verified(path: string, body: string, headers: Record<string, string>): Promise<boolean> {
  const spec = DEMO_ENDPOINTS.find((e) => e.path === path);
  const app = spec && (await demoApp());
  const ep = app && (await db.endpoint.findFirst({ where: { applicationId: app.id, uid: spec.uid } }));
  if (!ep) return false;
  try {
    if (ep.signingAlgorithm === "hmac_sha256") {
      new Webhook(visibleSecret(ep)).verify(body, headers);
      return true;
    }
    const id = headers["webhook-id"];
    const ts = Number(headers["webhook-timestamp"]);
    if (!id || !Number.isInteger(ts) || Math.abs(Date.now() / 1000 - ts) > TOLERANCE_S) return false;
    const signed = Buffer.from(`${id}.${ts}.${body}`);
    const key = ed25519PublicKey(ep.publicKey!);
    return (headers["webhook-signature"] ?? "")
      .split(" ")
      .some((entry) => entry.startsWith("v1a,") && edVerify(null, signed, key, Buffer.from(entry.slice(4), "base64")));
  } catch {
    return false;
  }
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    void (async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = req.headers as Record<string, string>;
      const ok = await verified((req.url ?? "").split("?")[0]!, body, headers);
      const json = { "content-type": "application/json" };
      if (!ok) return void res.writeHead(401, json).end(JSON.stringify({ error: "signature did not verify" }));
      const roll = Math.random();
      if (roll < BUSY_RATE) return void res.writeHead(503, { ...json, "retry-after": "5" }).end(JSON.stringify({ error: "demo receiver is pretending to be busy" }));
      if (roll < BUSY_RATE + REJECT_RATE)
        return void res.writeHead(422, json).end(JSON.stringify({ error: "demo receiver does not know this order" }));
      res.writeHead(200, json).end(JSON.stringify({ received: headers["webhook-id"], verified: true }));
    })().catch((err: unknown) => {
      logger.warn({ err }, "demo receiver failed");
      res.writeHead(500).end();
    });
  });
});
server.listen(port, "127.0.0.1");

let published = 0;
async function publishOne() {
  const app = await demoApp();
  if (!app) return false;
  const live = DEMO_EVENT_TYPES.filter((t) => !t.deprecated);
  const et = live[published % live.length]!;
  const payload = { ...examplePayload(et.schemas), ...(et.name.startsWith("order.") ? { order_id: `ord_demo_${1000 + published}` } : {}) };
  await publishMessage({ environmentId: app.environmentId }, app.id, {
    eventType: et.name,
    payload,
    eventId: `demo-${Date.now().toString(36)}-${published}`,
    payloadRetentionPeriod: 90,
  });
  published++;
  return true;
}

let timer: NodeJS.Timeout | undefined;
let stopped = false;

/** Bootstrap has made the demo application, its endpoints and the catalog (it runs after the web server is up). */
async function ready(): Promise<boolean> {
  const app = await demoApp();
  if (!app) return false;
  const endpoints = await db.endpoint.count({ where: { applicationId: app.id, uid: { in: DEMO_ENDPOINTS.map((e) => e.uid) } } });
  const types = await db.eventType.count({ where: { environmentId: app.environmentId, name: { in: DEMO_EVENT_TYPES.map((t) => t.name) } } });
  return endpoints === DEMO_ENDPOINTS.length && types === DEMO_EVENT_TYPES.length;
}

const publishSafely = () => publishOne().catch((err: unknown) => logger.warn({ err }, "demo publish failed"));

// Wait for bootstrap, send a first burst so the portal is populated at once, then keep it alive.
async function start() {
  while (!stopped && !(await ready().catch(() => false))) await new Promise((r) => setTimeout(r, WAIT_FOR_APP_MS));
  for (let i = 0; i < FIRST_BURST && !stopped; i++) await publishSafely();
  if (!stopped) timer = setInterval(() => void publishSafely(), PUBLISH_EVERY_MS);
}
void start();

function shutdown() {
  stopped = true;
  if (timer) clearInterval(timer);
  server.close();
  void db.$disconnect().finally(() => process.exit(0));
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
