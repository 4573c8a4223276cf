import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createSecretBox } from "@/lib/crypto/secret-box";
import { createTenant, baseUrl, type Tenant } from "./helpers/tenant";
import { recordingSvix } from "./helpers/sdk";
import { startReceiver, type Receiver } from "./helpers/receiver";

// A dump of the database holds no usable credential: API keys, portal links (hpt_) and sessions
// (hps_) are stored as hashes; endpoint secrets, custom header values, task callback secrets and
// the answers kept for idempotency keys (the SDK sends one with every POST, and the answer of
// app-portal-access IS a portal link) are sealed with HERALD_ENCRYPTION_KEY. The dump is every
// row of every table as text, what `pg_dump --data-only` writes, of the database every suite of
// this run uses.

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function dumpDatabase(): Promise<string> {
  const tables = await db.$queryRaw<{ name: string }[]>`
    SELECT table_name::text AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`;
  expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["api_key", "endpoint", "idempotency_record", "portal_token", "task"]));
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = await db.$queryRawUnsafe<{ row: string }[]>(`SELECT t::text AS row FROM ${ident(name)} t`);
    parts.push(`-- ${name}`, ...rows.map((r) => r.row));
  }
  return parts.join("\n");
}

describe("secrets at rest", () => {
  let t: Tenant;
  let rx: Receiver;
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTenant("secrets-at-rest");
    rx = await startReceiver();
    const sdk = recordingSvix(t.apiKey);
    secrets["API key"] = t.apiKey;

    await sdk.svix.application.create({ name: "Secrets", uid: "secrets-app" });
    secrets["endpoint secret"] = "whsec_" + randomBytes(32).toString("base64");
    secrets["custom header value"] = `Bearer rest-${randomBytes(12).toString("hex")}`;
    const ep = await sdk.svix.endpoint.create("secrets-app", {
      url: rx.url,
      secret: secrets["endpoint secret"],
      headers: { Authorization: secrets["custom header value"] },
    });

    // Through the SDK, which sends an idempotency key with the POST: its answer is a working link.
    const access = await sdk.svix.authentication.appPortalAccess("secrets-app", {});
    expect(access.token).toMatch(/^hpt_/);
    secrets["portal link token (hpt_)"] = access.token;
    const exchanged = await fetch(`${baseUrl()}/api/v1/auth/portal-session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: access.token }),
    });
    secrets["portal session (hps_)"] = ((await exchanged.json()) as { session: string }).session;
    expect(secrets["portal session (hps_)"]).toMatch(/^hps_/);

    // A task whose 202 carries the callback secret Herald generated, under an idempotency key.
    const since = new Date(Date.now() - 3600_000).toISOString();
    const recover = () =>
      t.api("POST", `/app/secrets-app/endpoint/${ep.id}/recover`, { since, callback_url: rx.url }, { "idempotency-key": "secrets-recover" });
    const started = await recover();
    expect(started.status).toBe(202);
    secrets["task callback secret"] = started.body.callback_secret;
    expect(secrets["task callback secret"]).toMatch(/^whsec_/);
    // The sealed answer still replays as it was.
    const replayed = await recover();
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body).toEqual(started.body);
  });
  afterAll(async () => {
    await rx?.close();
  });

  it("keeps idempotent answers sealed", async () => {
    const records = await db.idempotencyRecord.findMany({ where: { environmentId: t.environmentId } });
    expect(records.length).toBeGreaterThanOrEqual(3); // application, endpoint, portal access, recover
    for (const r of records) expect(r.responseSealed).toMatch(/^v1\./);
  });

  it("a dump of the database holds none of the credentials, nor any portal link or session", async () => {
    const dump = await dumpDatabase();
    expect(dump).toContain(t.environmentId); // it is the database the server writes to
    for (const [what, value] of Object.entries(secrets)) expect(dump.includes(value), what).toBe(false);
    expect(dump.includes(secrets["endpoint secret"]!.slice("whsec_".length)), "endpoint secret key").toBe(false);
    // No working portal credential of any suite of this run, whatever its value.
    expect(dump.match(/hp[ts]_[A-Za-z0-9_-]{43}/g)).toBeNull();
  });

  it("a secret sealed with another key is a 503 naming the setting, not a 500", async () => {
    // What a checkout with a freshly generated key sees in another installation's database.
    const ep = await t.api("POST", "/app/secrets-app/endpoint", { url: rx.url });
    expect(ep.status).toBe(201);
    const otherKey = randomBytes(32).toString("base64");
    await db.endpoint.update({ where: { id: ep.body.id }, data: { secretEncrypted: createSecretBox(otherKey).seal("whsec_other") } });
    try {
      const res = await t.api("GET", `/app/secrets-app/endpoint/${ep.body.id}/secret`);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: "encryption_key_mismatch", detail: expect.stringMatching(/HERALD_ENCRYPTION_KEY/) });
    } finally {
      await db.endpoint.delete({ where: { id: ep.body.id } });
    }
  });
});
