import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "./helpers/tenant";
import { call, portalSession, seedDelivery, type PortalClient } from "./helpers/portal";

// A portal session sees one application. Tried the way an attacker holding a valid session for
// app A would: every route the portal can reach, called with the ids and uids of app B (same
// operator) and app C (another operator), alone and mixed with A's own ids. Every answer must be
// a 404 that reveals nothing, and B's rows must be untouched.

type Ids = { app: string; appUid: string; ep: string; epUid: string; msg: string; eventId: string; delivery: string; attempt: string; task: string | null; capture: string; listen: string };

async function seed(t: Tenant, uid: string): Promise<Ids> {
  const app = (await t.api("POST", "/app", { name: `${uid} app`, uid })).body;
  await t.api("POST", "/event-type", { name: "order.paid", description: "paid" });
  // Paused: the worker leaves these rows alone while the attacker pokes at them.
  const ep = (await t.api("POST", `/app/${app.id}/endpoint`, { url: "https://hooks.example.com/x", uid: `${uid}-ep`, disabled: true })).body;
  const msg = (await t.api("POST", `/app/${app.id}/msg`, { eventType: "order.paid", payload: { secret: uid }, eventId: `${uid}-evt` })).body;
  const d = await seedDelivery(t, { appId: app.id, endpointId: ep.id, messageId: msg.id, eventType: "order.paid", status: "failed", attempts: [{ ok: false, code: 500 }] });
  // A test URL and a herald listen endpoint (the integrator tools).
  const capture = (await t.api("POST", `/app/${app.id}/capture`, {})).body.endpointId as string;
  const listen = (await t.api("POST", `/app/${app.id}/listen`, {})).body.endpoint.id as string;
  return { app: app.id, appUid: uid, ep: ep.id, epUid: `${uid}-ep`, msg: msg.id, eventId: `${uid}-evt`, delivery: d.id, attempt: d.attemptIds[0]!, task: null, capture, listen };
}

describe("portal session isolation", () => {
  let op: Tenant;
  let other: Tenant;
  let a: Ids;
  let b: Ids;
  let c: Ids;
  let portal: PortalClient;

  beforeAll(async () => {
    op = await createTenant("portal-iso");
    other = await createTenant("portal-iso-other");
    a = await seed(op, "app-a");
    b = await seed(op, "app-b");
    c = await seed(other, "app-c");
    // A task of B's (operator-started), to try through A's session.
    const started = await op.api("POST", `/app/${b.app}/bulk-retry`, { endpoint_id: b.ep });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    b.task = started.body.task_id;
    portal = await portalSession(op, a.app);
  });

  it("every portal-reachable route answers 404 for another application's ids and uids", async () => {
    const victims = [b, c];
    const requests: [string, string, unknown?][] = [];
    for (const v of victims) {
      for (const app of [v.app, v.appUid]) {
        requests.push(
          ["GET", `/app/${app}`],
          ["GET", `/app/${app}/endpoint`],
          ["POST", `/app/${app}/endpoint`, { url: "https://evil.example.com/hook" }],
          ["GET", `/app/${app}/msg`],
          ["POST", `/app/${app}/replay/estimate`, {}],
          ["POST", `/app/${app}/replay`, {}],
          ["POST", `/app/${app}/bulk-retry`, {}],
          ["GET", `/portal/app/${app}/delivery`],
          ["GET", `/portal/app/${app}/failure`],
          ["GET", `/portal/app/${app}/endpoint-health`],
          ["POST", `/portal/app/${app}/validate-url`, { url: "https://example.com/" }],
          ["GET", `/app/${app}/capture`],
          ["POST", `/app/${app}/capture`, {}],
          ["POST", `/app/${app}/listen`, {}],
        );
      }
      // The victim's endpoint, message, delivery and attempt, under the victim's app and under A's own.
      for (const app of [v.app, a.app]) {
        for (const ep of [v.ep, v.epUid]) {
          // PUT upserts: under A's own app a free uid creates A's own endpoint (checked below).
          const ownUpsert = app === a.app && ep === v.epUid;
          if (!ownUpsert)
            requests.push(["PUT", `/app/${app}/endpoint/${ep}`, { url: "https://evil.example.com/hook" }], ["DELETE", `/app/${app}/endpoint/${ep}`]);
          requests.push(
            ["GET", `/app/${app}/endpoint/${ep}`],
            ["PATCH", `/app/${app}/endpoint/${ep}`, { description: "pwned" }],
            ["GET", `/app/${app}/endpoint/${ep}/secret`],
            ["POST", `/app/${app}/endpoint/${ep}/secret/rotate`, {}],
            ["GET", `/app/${app}/endpoint/${ep}/headers`],
            ["PATCH", `/app/${app}/endpoint/${ep}/headers`, { headers: { "x-pwned": "1" } }],
            ["GET", `/app/${app}/endpoint/${ep}/stats`],
            ["GET", `/app/${app}/endpoint/${ep}/msg`],
            ["POST", `/app/${app}/endpoint/${ep}/send-example`, { eventType: "order.paid" }],
            ["POST", `/app/${app}/endpoint/${ep}/recover`, { since: new Date(Date.now() - 3600_000).toISOString() }],
            ["GET", `/app/${app}/attempt/endpoint/${ep}`],
            ["POST", `/portal/app/${app}/endpoint/${ep}/preview-example`, { eventType: "order.paid" }],
            ["GET", `/portal/app/${app}/delivery?endpoint_id=${ep}`],
          );
        }
        for (const msg of [v.msg, v.eventId]) {
          requests.push(
            ["GET", `/app/${app}/msg/${msg}`],
            ["GET", `/app/${app}/msg/${msg}/endpoint`],
            ["GET", `/app/${app}/attempt/msg/${msg}`],
            ["GET", `/app/${app}/msg/${msg}/attempt/${v.attempt}`],
            ["POST", `/app/${app}/msg/${msg}/endpoint/${v.ep}/resend`],
            ["POST", `/app/${app}/msg/${msg}/endpoint/${a.ep}/resend`],
            ["POST", `/app/${app}/msg/${msg}/replay`, {}],
          );
        }
        requests.push(
          ["GET", `/portal/app/${app}/delivery/${v.delivery}`],
          ["GET", `/app/${app}/capture/${v.capture}`],
          ["PATCH", `/app/${app}/capture/${v.capture}`, { answer: "error" }],
          ["DELETE", `/app/${app}/capture/${v.capture}`],
          ["GET", `/app/${app}/listen/${v.listen}`],
          ["POST", `/app/${app}/listen/${v.listen}/answer`, { id: "aaaaaaaa.bbbbbbbb", status: 200, durationMs: 1 }],
        );
      }
      if (v.task) requests.push(["GET", `/tasks/${v.task}`], ["GET", `/tasks/${v.task}/events`], ["POST", `/tasks/${v.task}/cancel`]);
    }

    const leaks: string[] = [];
    for (const [method, path, body] of requests) {
      const r = await portal.api(method, path, body);
      if (r.status !== 404) leaks.push(`${method} ${path} → ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      else {
        const text = JSON.stringify(r.body);
        for (const secret of ["app-b", "app-c"]) if (text.includes(secret)) leaks.push(`${method} ${path} 404 body mentions ${secret}`);
      }
    }
    expect(leaks).toEqual([]);
    // B's test URL is still there, still answering 200.
    expect((await op.db.captureInbox.findUniqueOrThrow({ where: { endpointId: b.capture } })).answer).toBe("ok");
    expect(await op.db.endpoint.findUnique({ where: { id: b.listen } })).not.toBeNull();
  });

  it("a PUT with B's endpoint uid under A's app creates A's own endpoint and leaves B's alone", async () => {
    const r = await portal.api("PUT", `/app/${a.app}/endpoint/${b.epUid}`, { url: "https://hooks.example.com/mine" });
    expect(r.status).toBe(201);
    expect(r.body.id).not.toBe(b.ep);
    const created = await op.db.endpoint.findUniqueOrThrow({ where: { id: r.body.id } });
    expect(created.applicationId).toBe(a.app);
    expect((await portal.api("DELETE", `/app/${a.app}/endpoint/${r.body.id}`)).status).toBe(204);
    expect(await op.db.endpoint.findUnique({ where: { id: b.ep } })).not.toBeNull();
  });

  it("searching A's logs by B's message id or event id finds nothing", async () => {
    for (const q of [b.msg, b.eventId, c.msg, c.eventId]) {
      const r = await portal.api("GET", `/portal/app/${a.app}/delivery?search=${q}`);
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual([]);
    }
  });

  it("lists only A: applications, endpoints, failures, tasks", async () => {
    const apps = await portal.api("GET", "/app");
    expect(apps.body.data.map((x: { id: string }) => x.id)).toEqual([a.app]);
    const failures = await portal.api("GET", `/portal/app/${a.app}/failure`);
    expect(failures.body.data.map((g: { endpointId: string }) => g.endpointId)).toEqual([a.ep]);
    const logs = await portal.api("GET", `/portal/app/${a.app}/delivery`);
    expect(logs.body.data.map((d: { id: string }) => d.id)).toEqual([a.delivery]);
    const tasks = await portal.api("GET", "/tasks");
    expect(tasks.status).toBe(200);
    expect(tasks.body.data.some((t: { id: string }) => t.id === b.task)).toBe(false);
  });

  it("operator-only operations are refused to a portal session", async () => {
    for (const [method, path, body] of [
      ["POST", "/app", { name: "new" }],
      ["PATCH", `/app/${a.app}`, { name: "renamed" }],
      ["DELETE", `/app/${a.app}`],
      ["POST", "/event-type", { name: "evil.created", description: "x" }],
      ["POST", `/app/${a.app}/msg`, { eventType: "order.paid", payload: {} }],
      ["POST", `/auth/app-portal-access/${a.app}`, {}],
      ["POST", `/auth/app/${a.app}/expire-all`],
    ] as [string, string, unknown?][]) {
      const r = await portal.api(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(403);
    }
  });

  it("leaves B's rows exactly as they were", async () => {
    const ep = await op.db.endpoint.findUniqueOrThrow({ where: { id: b.ep } });
    expect(ep.description).toBe("");
    expect(ep.url).toBe("https://hooks.example.com/x");
    expect(await op.db.delivery.count({ where: { applicationId: b.app } })).toBe(1);
    expect(await op.db.attempt.count({ where: { applicationId: b.app } })).toBe(1);
    expect(await op.db.message.count({ where: { applicationId: b.app } })).toBe(1);
    const headers = await call("GET", `/app/${b.app}/endpoint/${b.ep}/headers`, op.apiKey);
    expect(headers.body.headers).toEqual({});
  });
});
