// The demo started by `npm run up` (HERALD_DEMO=0 turns it off): a webhook receiver on loopback
// that verifies signatures and answers like a real integration (now and then with a 503, so
// retries show up in the portal), and a publisher that sends the demo application a sample
// event every few seconds so its portal is alive.
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";
import { db } from "../lib/db";
import { logger } from "../lib/logger";
import { DEMO_APP_UID } from "../lib/demo/ensure-demo";
import { DEMO_EVENT_TYPES } from "../lib/demo/catalog";
import { examplePayload } from "../lib/event-types/example-payload";
import { publishMessage } from "../lib/messages/publish-message";
import { visibleSecret } from "../lib/endpoints/endpoint-secrets";

const PUBLISH_EVERY_MS = 8_000;
const FAILURE_RATE = 0.15;

const portFlag = process.argv.indexOf("--port");
const port = Number(portFlag > 0 ? process.argv[portFlag + 1] : 3001);

async function demoApp() {
  return db.application.findFirst({ where: { uid: DEMO_APP_UID, internal: false }, orderBy: { id: "asc" } });
}

async function verifier(): Promise<Webhook | null> {
  const app = await demoApp();
  const ep = app && (await db.endpoint.findFirst({ where: { applicationId: app.id, uid: "demo-receiver" } }));
  return ep && ep.signingAlgorithm === "hmac_sha256" ? new Webhook(visibleSecret(ep)) : null;
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    void (async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let verified = false;
      try {
        (await verifier())?.verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      if (Math.random() < FAILURE_RATE) {
        res.writeHead(503, { "content-type": "application/json", "retry-after": "5" });
        res.end(JSON.stringify({ error: "demo receiver is pretending to be busy" }));
        return;
      }
      res.writeHead(verified ? 200 : 401, { "content-type": "application/json" });
      res.end(JSON.stringify({ received: req.headers["webhook-id"], verified }));
    })();
  });
});
server.listen(port, "127.0.0.1");

const timer = setInterval(() => {
  void (async () => {
    const app = await demoApp();
    if (!app) return;
    const et = DEMO_EVENT_TYPES[Math.floor(Math.random() * DEMO_EVENT_TYPES.length)]!;
    await publishMessage({ environmentId: app.environmentId }, app.id, {
      eventType: et.name,
      payload: examplePayload(et.schemas),
      payloadRetentionPeriod: 90,
    });
  })().catch((err: unknown) => logger.warn({ err }, "demo publish failed"));
}, PUBLISH_EVERY_MS);

function shutdown() {
  clearInterval(timer);
  server.close();
  void db.$disconnect().finally(() => process.exit(0));
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
