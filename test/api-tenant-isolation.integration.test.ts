import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/ids";
import { createTenant, baseUrl, type Tenant } from "./helpers/tenant";
import { snapshotEnvironment } from "./helpers/db-snapshot";
import { portalSession } from "./helpers/portal";

// Tenant isolation, tried the way an attacker would: with a valid API key of their own
// environment, every path is called with the victim's ids and uids, alone and mixed with the
// attacker's own (their app + the victim's endpoint, the victim's message + their endpoint...).
// Every attempt must be a 404 (or a 422/409 that reveals nothing), and the victim's rows must be
// exactly as they were.

type Ids = { app: string; appUid: string; ep: string; epUid: string; msg: string; eventId: string; attempt: string; eventType: string };

async function seed(t: Tenant, prefix: string, eventType: string): Promise<Ids> {
  const app = (await t.api("POST", "/app", { name: `${prefix} app`, uid: `${prefix}-app` })).body;
  await t.api("POST", "/app", { name: `${prefix} shared`, uid: "shared" });
  expect((await t.api("POST", "/event-type", { name: eventType, description: "x" })).status).toBe(201);
  // Paused, so the worker leaves these rows alone while the attacker pokes at them.
  const ep = (await t.api("POST", `/app/${app.id}/endpoint`, { url: "https://hooks.example.com/i", uid: `${prefix}-ep`, disabled: true })).body;
  const msg = (await t.api("POST", `/app/${app.id}/msg`, { eventType, payload: { secret: prefix }, eventId: `${prefix}-evt` })).body;
  // A finished delivery with one attempt, written directly: no worker involved.
  const deliveryId = newId("delivery");
  await t.db.delivery.create({
    data: { id: deliveryId, environmentId: t.environmentId, applicationId: app.id, endpointId: ep.id, messageId: msg.id, eventType, status: "succeeded" },
  });
  const attempt = newId("attempt");
  await t.db.attempt.create({
    data: {
      id: attempt,
      environmentId: t.environmentId,
      applicationId: app.id,
      endpointId: ep.id,
      messageId: msg.id,
      deliveryId,
      eventType,
      url: ep.url,
      status: "success",
      requestHeaders: {},
      requestBody: JSON.stringify({ secret: prefix }),
      responseStatus: 200,
      responseBody: `${prefix} response`,
      durationMs: 5,
    },
  });
  return { app: app.id, appUid: app.uid, ep: ep.id, epUid: ep.uid, msg: msg.id, eventId: msg.eventId, attempt, eventType };
}

describe("tenant isolation", () => {
  let attacker: Tenant;
  let victim: Tenant;
  let mine: Ids;
  let theirs: Ids;

  beforeAll(async () => {
    attacker = await createTenant("attacker");
    victim = await createTenant("victim");
    mine = await seed(attacker, "mine", "order.paid");
    theirs = await seed(victim, "theirs", "victim.secret");
  });

  it("every path refuses the other environment's ids and uids, and the victim's rows stay untouched", async () => {
    const before = await snapshotEnvironment(victim.environmentId);
    const apps = [theirs.app, theirs.appUid];
    const eps = [theirs.ep, theirs.epUid];
    const msgs = [theirs.msg, theirs.eventId];
    // [app, endpoint, message] combinations where at least one belongs to the victim.
    const combos: [string, string, string][] = [];
    for (const a of [...apps, mine.app])
      for (const e of [...eps, mine.ep])
        for (const m of [...msgs, mine.msg]) if (a !== mine.app || e !== mine.ep || m !== mine.msg) combos.push([a, e, m]);

    const requests: [string, string, unknown?][] = [];
    for (const a of apps) {
      requests.push(
        ["GET", `/app/${a}`],
        ["PATCH", `/app/${a}`, { name: "pwned" }],
        ["DELETE", `/app/${a}`],
        ["GET", `/app/${a}/endpoint`],
        ["POST", `/app/${a}/endpoint`, { url: "https://evil.example.com/" }],
        ["GET", `/app/${a}/msg`],
        ["POST", `/app/${a}/msg`, { eventType: "order.paid", payload: {} }],
        ["POST", `/auth/app-portal-access/${a}`, {}],
        ["POST", `/auth/app/${a}/expire-all`],
      );
    }
    requests.push(["PUT", `/app/${theirs.app}`, { name: "pwned" }]);
    for (const [a, e, m] of combos) {
      const mineOnlyEndpoint = a === mine.app && e === mine.ep;
      if (!mineOnlyEndpoint)
        requests.push(
          ["GET", `/app/${a}/endpoint/${e}`],
          ["PATCH", `/app/${a}/endpoint/${e}`, { description: "pwned" }],
          ["DELETE", `/app/${a}/endpoint/${e}`],
          ["GET", `/app/${a}/endpoint/${e}/headers`],
          ["PUT", `/app/${a}/endpoint/${e}/headers`, { headers: { "X-Pwned": "1" } }],
          ["PATCH", `/app/${a}/endpoint/${e}/headers`, { headers: { "X-Pwned": "1" } }],
          ["GET", `/app/${a}/endpoint/${e}/secret`],
          ["POST", `/app/${a}/endpoint/${e}/secret/rotate`, {}],
          ["GET", `/app/${a}/endpoint/${e}/stats`],
          ["GET", `/app/${a}/endpoint/${e}/msg`],
          ["POST", `/app/${a}/endpoint/${e}/recover`, { since: "2020-01-01T00:00:00Z" }],
          ["POST", `/app/${a}/endpoint/${e}/send-example`, { eventType: "order.paid" }],
          ["GET", `/app/${a}/attempt/endpoint/${e}`],
        );
      if (a !== mine.app || m !== mine.msg)
        requests.push(
          ["GET", `/app/${a}/msg/${m}`],
          ["DELETE", `/app/${a}/msg/${m}/content`],
          ["GET", `/app/${a}/msg/${m}/endpoint`],
          ["GET", `/app/${a}/attempt/msg/${m}`],
          ["GET", `/app/${a}/msg/${m}/attempt/${theirs.attempt}`],
          ["DELETE", `/app/${a}/msg/${m}/attempt/${theirs.attempt}/content`],
        );
      requests.push(["POST", `/app/${a}/msg/${m}/endpoint/${e}/resend`]);
      requests.push(["GET", `/app/${a}/attempt/msg/${m}?endpoint_id=${e}`]);
    }
    // The victim's attempt through the attacker's own message and app.
    requests.push(["GET", `/app/${mine.app}/msg/${mine.msg}/attempt/${theirs.attempt}`]);
    requests.push(["DELETE", `/app/${mine.app}/msg/${mine.msg}/attempt/${theirs.attempt}/content`]);
    requests.push(["GET", `/app/${mine.app}/attempt/msg/${mine.msg}?endpoint_id=${theirs.ep}`]);
    // Event types are per environment too.
    requests.push(
      ["GET", `/event-type/${theirs.eventType}`],
      ["PATCH", `/event-type/${theirs.eventType}`, { description: "pwned" }],
      ["DELETE", `/event-type/${theirs.eventType}`],
      ["DELETE", `/event-type/${theirs.eventType}?expunge=true`],
    );

    let checked = 0;
    for (const [method, path, body] of requests) {
      const res = await attacker.api(method, path, body);
      expect(res.status, `${method} ${path} → ${JSON.stringify(res.body)}`).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain("theirs");
      checked++;
    }
    expect(checked).toBeGreaterThan(300);
    expect(await snapshotEnvironment(victim.environmentId)).toEqual(before);
  }, 180_000);

  it("lists, filters and catalogs never show the other environment", async () => {
    const apps = await attacker.api("GET", "/app?limit=250");
    expect(apps.body.data.map((a: { id: string }) => a.id)).not.toContain(theirs.app);
    // Both have an application with uid "shared": each sees its own.
    const shared = await attacker.api("GET", "/app/shared");
    expect(shared.status).toBe(200);
    expect(shared.body.name).toBe("mine shared");
    const types = await attacker.api("GET", "/event-type?include_archived=true&limit=250");
    expect(types.body.data.map((e: { name: string }) => e.name)).not.toContain(theirs.eventType);
    // A cursor taken from the victim's ids shows nothing of theirs either.
    const fromTheirs = await attacker.api("GET", `/app?iterator=${theirs.app}`);
    expect(JSON.stringify(fromTheirs.body)).not.toContain("theirs");
    const msgs = await attacker.api("GET", `/app/${mine.app}/msg?event_types=${theirs.eventType}`);
    expect(msgs.body.data).toEqual([]);
  });

  it("the other environment's event types cannot be subscribed to or published", async () => {
    const ep = await attacker.api("POST", `/app/${mine.app}/endpoint`, { url: "https://hooks.example.com/s", filterTypes: [theirs.eventType] });
    expect(ep.status).toBe(422);
    const msg = await attacker.api("POST", `/app/${mine.app}/msg`, { eventType: theirs.eventType, payload: {} });
    expect(msg.status).toBe(422);
  });

  it("eventIds and idempotency keys are per environment", async () => {
    const reuse = await attacker.api("POST", `/app/${mine.app}/msg`, { eventType: "order.paid", payload: {}, eventId: theirs.eventId });
    expect(reuse.status).toBe(202);
    expect(reuse.body.id).not.toBe(theirs.msg);
    const key = { "idempotency-key": "same-key-both-tenants" };
    const v = await victim.api("POST", `/app/${theirs.app}/msg`, { eventType: "victim.secret", payload: { v: 1 } }, key);
    const a = await attacker.api("POST", `/app/${mine.app}/msg`, { eventType: "order.paid", payload: { a: 1 } }, key);
    expect([v.status, a.status]).toEqual([202, 202]);
    expect(a.body.id).not.toBe(v.body.id);
    expect(a.headers.get("idempotent-replayed")).toBeNull();
  });

  it("a portal session sees only its own application", async () => {
    const second = (await attacker.api("POST", "/app", { name: "second", uid: "second" })).body;
    const { session } = await portalSession(attacker, mine.app);
    const asPortal = (path: string) => fetch(`${baseUrl()}/api/v1${path}`, { headers: { authorization: `Bearer ${session}` } });
    expect((await asPortal(`/app/${mine.app}`)).status).toBe(200);
    for (const path of [`/app/${second.id}`, "/app/second", `/app/${second.id}/endpoint`, `/app/${theirs.app}`, `/app/${theirs.app}/msg/${theirs.msg}`])
      expect((await asPortal(path)).status, path).toBe(404);
    const list = (await (await asPortal("/app")).json()) as { data: { id: string }[] };
    expect(list.data.map((a) => a.id)).toEqual([mine.app]);
  });
});
