import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MessageStatus, Ordering, Webhook, type EndpointOut, type MessageOut } from "svix";
import { hashToken } from "@/lib/crypto/tokens";
import { createTenant, baseUrl, type Tenant } from "./helpers/tenant";
import { pollUntil, recordingSvix, sdkError } from "./helpers/sdk";
import { startReceiver, type Receiver } from "./helpers/receiver";

// Herald driven by the official `svix` npm SDK (1.99.1, the last 1.x; 2.x needs Node 22), pointed
// at the test server with `serverUrl`. Every one of the 26 paths of the Svix OpenAPI document
// (/work/shared/reference/svix-server-openapi.json) is called through an SDK method:
//
// | Path (/api/v1…)                                          | SDK methods                                     | Test                                            |
// |----------------------------------------------------------|-------------------------------------------------|-------------------------------------------------|
// | /app                                                     | application.create, getOrCreate, list           | applications: create…; pages…; idempotency…     |
// | /app/{app_id}                                            | application.get, update, patch, delete          | applications: get, update, patch, delete…       |
// | /app/{app_id}/attempt/endpoint/{endpoint_id}             | messageAttempt.listByEndpoint                   | deliveries: attempts by endpoint…               |
// | /app/{app_id}/attempt/msg/{msg_id}                       | messageAttempt.listByMsg                        | deliveries: a published message is delivered…  |
// | /app/{app_id}/endpoint                                   | endpoint.create, list                           | endpoints: create…; pages…                      |
// | /app/{app_id}/endpoint/{endpoint_id}                     | endpoint.get, update, patch, delete             | endpoints: get, update, patch, delete…          |
// | /app/{app_id}/endpoint/{endpoint_id}/headers             | endpoint.getHeaders, updateHeaders, patchHeaders| endpoints: custom headers…                      |
// | /app/{app_id}/endpoint/{endpoint_id}/msg                 | messageAttempt.listAttemptedMessages            | deliveries: attempted messages…                 |
// | /app/{app_id}/endpoint/{endpoint_id}/recover             | endpoint.recover                                | endpoints: recover…                             |
// | /app/{app_id}/endpoint/{endpoint_id}/secret              | endpoint.getSecret                              | endpoints: secrets…                             |
// | /app/{app_id}/endpoint/{endpoint_id}/secret/rotate       | endpoint.rotateSecret                           | endpoints: secrets…                             |
// | /app/{app_id}/endpoint/{endpoint_id}/send-example        | endpoint.sendExample                            | deliveries: send-example…                       |
// | /app/{app_id}/endpoint/{endpoint_id}/stats               | endpoint.getStats                               | endpoints: stats…; deliveries: stats…           |
// | /app/{app_id}/msg                                        | message.create, list                            | messages: publish…; pages…; filters…            |
// | /app/{app_id}/msg/{msg_id}                               | message.get                                     | messages: publish…                              |
// | /app/{app_id}/msg/{msg_id}/attempt/{attempt_id}          | messageAttempt.get                              | deliveries: one attempt…                        |
// | /app/{app_id}/msg/{msg_id}/attempt/{attempt_id}/content  | messageAttempt.expungeContent                   | deliveries: one attempt…                        |
// | /app/{app_id}/msg/{msg_id}/content                       | message.expungeContent                          | messages: expunge content…                      |
// | /app/{app_id}/msg/{msg_id}/endpoint                      | messageAttempt.listAttemptedDestinations        | deliveries: attempted destinations…             |
// | /app/{app_id}/msg/{msg_id}/endpoint/{endpoint_id}/resend | messageAttempt.resend                           | deliveries: resend…                             |
// | /auth/app-portal-access/{app_id}                         | authentication.appPortalAccess                  | auth: portal access…                            |
// | /auth/logout                                             | authentication.logout                           | auth: logout…; the portal token (hpt_)…         |
// | /event-type                                              | eventType.create, list                          | event types: create…; pages…                    |
// | /event-type/{event_type_name}                            | eventType.get, update, patch, delete            | event types: get, update, patch, archive…       |
// | /health                                                  | health.get                                      | health… (and test/health.integration.test.ts)   |
// | /health/ping                                             | (none in svix@1.99.1: plain fetch)              | health…                                         |
//
// Tests under "deliveries" need the worker to deliver to a real receiver; they poll (bounded).

const HOUR = 3600_000;

describe("Svix SDK against Herald", () => {
  let t: Tenant;
  let sdk: ReturnType<typeof recordingSvix>;

  beforeAll(async () => {
    t = await createTenant("svix-sdk");
    sdk = recordingSvix(t.apiKey);
    for (const name of ["invoice.paid", "invoice.created", "user.signed_up"])
      await sdk.svix.eventType.create({ name, description: `${name} happened` });
  });

  describe("health", () => {
    it("GET /health answers 204 through the SDK and /health/ping answers 204", async () => {
      await sdk.svix.health.get();
      expect(sdk.last().status).toBe(204);
      const ping = await fetch(`${baseUrl()}/api/v1/health/ping`);
      expect(ping.status).toBe(204);
    });
  });

  describe("applications", () => {
    it("create returns 201, getOrCreate returns the same application (200), a duplicate uid is a 409", async () => {
      const app = await sdk.svix.application.create({ name: "Acme", uid: "acme", metadata: { plan: "pro" }, rateLimit: 10 });
      expect(sdk.last().status).toBe(201);
      expect(app).toMatchObject({ name: "Acme", uid: "acme", metadata: { plan: "pro" }, throttleRate: 10, rateLimit: 10 });
      expect(app.id).toMatch(/^app_[0-9a-z]{26}$/);
      expect(app.createdAt).toBeInstanceOf(Date);
      expect(Number.isNaN(app.createdAt.getTime())).toBe(false);

      const again = await sdk.svix.application.getOrCreate({ name: "Acme (ignored)", uid: "acme" });
      expect(sdk.last().status).toBe(200);
      expect(again.id).toBe(app.id);

      const dup = await sdkError(sdk.svix.application.create({ name: "Other", uid: "acme" }));
      expect(dup.code).toBe(409);
      expect(dup.body).toMatchObject({ code: "conflict" });
    });

    it("get, update, patch, delete by id and by uid; both rate-limit field names are accepted and returned", async () => {
      const app = await sdk.svix.application.create({ name: "Globex", uid: "globex" });
      expect((await sdk.svix.application.get("globex")).id).toBe(app.id);
      expect((await sdk.svix.application.get(app.id)).uid).toBe("globex");

      const updated = await sdk.svix.application.update("globex", { name: "Globex Corp", throttleRate: 5, metadata: { a: "b" } });
      expect(sdk.last().status).toBe(200);
      expect(updated).toMatchObject({ id: app.id, name: "Globex Corp", uid: "globex", throttleRate: 5, rateLimit: 5, metadata: { a: "b" } });

      // PUT on a uid that does not exist creates it (201).
      const created = await sdk.svix.application.update("initech", { name: "Initech" });
      expect(sdk.last().status).toBe(201);
      expect(created.uid).toBe("initech");

      const patched = await sdk.svix.application.patch(app.id, { rateLimit: 7 });
      expect(patched).toMatchObject({ name: "Globex Corp", throttleRate: 7, rateLimit: 7, metadata: { a: "b" } });
      const renamed = await sdk.svix.application.patch("globex", { name: "G", uid: "globex-2" });
      expect(renamed).toMatchObject({ id: app.id, name: "G", uid: "globex-2" });

      await sdk.svix.application.delete("globex-2");
      expect(sdk.last().status).toBe(204);
      const gone = await sdkError(sdk.svix.application.get(app.id));
      expect(gone.code).toBe(404);
      expect(gone.body).toMatchObject({ code: "not_found" });
      await sdk.svix.application.delete("initech");
    });

    it("lists applications in pages, forwards and backwards, in both orders", async () => {
      const other = await createTenant("svix-sdk-pages");
      const s = recordingSvix(other.apiKey).svix;
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) ids.push((await s.application.create({ name: `App ${i}` })).id);

      const seen: string[] = [];
      const pages: { iterator: string | null; prevIterator?: string | null | undefined }[] = [];
      let iterator: string | null | undefined = undefined;
      for (let page = 0; page < 10; page++) {
        const res = await s.application.list({ limit: 3, iterator });
        seen.push(...res.data.map((a) => a.id));
        pages.push({ iterator: res.iterator, prevIterator: res.prevIterator });
        if (res.done) break;
        iterator = res.iterator;
      }
      expect(seen).toEqual(ids); // ascending (creation order) by default
      expect(pages).toHaveLength(3);

      // Back from the last page with prevIterator.
      const back = await s.application.list({ limit: 3, iterator: pages[2]!.prevIterator });
      expect(back.data.map((a) => a.id)).toEqual(ids.slice(3, 6));
      expect(back.done).toBe(false);
      const first = await s.application.list({ limit: 3, iterator: back.prevIterator });
      expect(first.data.map((a) => a.id)).toEqual(ids.slice(0, 3));
      expect(first.done).toBe(true);

      const desc = await s.application.list({ limit: 4, order: Ordering.Descending });
      expect(desc.data.map((a) => a.id)).toEqual([...ids].reverse().slice(0, 4));
      const desc2 = await s.application.list({ limit: 4, order: Ordering.Descending, iterator: desc.iterator });
      expect(desc2.data.map((a) => a.id)).toEqual([...ids].reverse().slice(4));
      expect(desc2.done).toBe(true);
    });

    it("idempotency-key: a retry returns the original response; the same key with another body is a 409", async () => {
      const a = await sdk.svix.application.create({ name: "Idem" }, { idempotencyKey: "create-idem-1" });
      expect(sdk.last().status).toBe(201);
      const b = await sdk.svix.application.create({ name: "Idem" }, { idempotencyKey: "create-idem-1" });
      expect(sdk.last().status).toBe(201);
      expect(sdk.last().headers.get("idempotent-replayed")).toBe("true");
      expect(b).toEqual(a);
      expect((await t.db.application.count({ where: { environmentId: t.environmentId, name: "Idem" } }))).toBe(1);

      const conflict = await sdkError(sdk.svix.application.create({ name: "Idem, changed" }, { idempotencyKey: "create-idem-1" }));
      expect(conflict.code).toBe(409);
      expect(conflict.body).toMatchObject({ code: "idempotency_conflict" });
    });

    it("validation errors are ApiException 422 with Svix's {detail:[{loc,msg,type}]}", async () => {
      const err = await sdkError(sdk.svix.application.create({ name: "" }));
      expect(err.code).toBe(422);
      const detail = err.body.detail as { loc: string[]; msg: string; type: string }[];
      expect(detail[0]).toMatchObject({ loc: ["body", "name"], type: expect.any(String) });
      expect(detail[0]!.msg).toMatch(/empty/);
    });

    it("a bad API key is an ApiException 401", async () => {
      const bad = recordingSvix("hk_not_a_real_key").svix;
      const err = await sdkError(bad.application.list());
      expect(err.code).toBe(401);
      expect(err.body).toMatchObject({ code: "authentication_failed" });
    });
  });

  describe("event types", () => {
    it("create, get, update, patch, archive, unarchive by create, expunge", async () => {
      const schema = { "1": { type: "object", properties: { id: { type: "string" } }, examples: [{ id: "ord_1" }, { id: "ord_2" }] } };
      const et = await sdk.svix.eventType.create({ name: "order.shipped", description: "Shipped", schemas: schema });
      expect(sdk.last().status).toBe(201);
      expect(et).toMatchObject({ name: "order.shipped", description: "Shipped", archived: false, deprecated: false, schemas: schema });

      expect((await sdk.svix.eventType.get("order.shipped")).description).toBe("Shipped");
      const dup = await sdkError(sdk.svix.eventType.create({ name: "order.shipped", description: "again" }));
      expect(dup.code).toBe(409);

      const updated = await sdk.svix.eventType.update("order.shipped", { description: "Left the warehouse", deprecated: true });
      expect(updated).toMatchObject({ description: "Left the warehouse", deprecated: true, schemas: null });
      const viaPut = await sdk.svix.eventType.update("order.returned", { description: "Came back" });
      expect(sdk.last().status).toBe(201);
      expect(viaPut.name).toBe("order.returned");

      const patched = await sdk.svix.eventType.patch("order.shipped", { featureFlags: ["beta"], schemas: schema });
      expect(patched).toMatchObject({ featureFlag: "beta", featureFlags: ["beta"], deprecated: true, schemas: schema });

      await sdk.svix.eventType.delete("order.shipped");
      expect(sdk.last().status).toBe(204);
      expect((await sdk.svix.eventType.get("order.shipped")).archived).toBe(true);
      const listed = await sdk.svix.eventType.list({ limit: 250 });
      expect(listed.data.map((e) => e.name)).not.toContain("order.shipped");
      const withArchived = await sdk.svix.eventType.list({ limit: 250, includeArchived: true });
      expect(withArchived.data.map((e) => e.name)).toContain("order.shipped");

      // Create on an archived type brings it back (Svix: "create new or unarchive existing").
      const back = await sdk.svix.eventType.create({ name: "order.shipped", description: "Back" });
      expect(back).toMatchObject({ archived: false, description: "Back" });

      await sdk.svix.eventType.delete("order.returned", { expunge: true });
      expect((await sdkError(sdk.svix.eventType.get("order.returned"))).code).toBe(404);
    });

    it("lists the catalog by name in pages; schemas only with withContent", async () => {
      const other = await createTenant("svix-sdk-et-pages");
      const s = recordingSvix(other.apiKey).svix;
      const names = ["a.one", "b.two", "c.three", "d.four", "e.five"];
      for (const name of [...names].reverse())
        await s.eventType.create({ name, description: name, schemas: { "1": { type: "object" } } });
      const p1 = await s.eventType.list({ limit: 2 });
      expect(p1.data.map((e) => e.name)).toEqual(names.slice(0, 2));
      expect(p1.data[0]!.schemas ?? null).toBeNull();
      const p2 = await s.eventType.list({ limit: 2, iterator: p1.iterator, withContent: true });
      expect(p2.data.map((e) => e.name)).toEqual(names.slice(2, 4));
      expect(p2.data[0]!.schemas).toEqual({ "1": { type: "object" } });
      const p3 = await s.eventType.list({ limit: 2, iterator: p2.iterator });
      expect(p3.data.map((e) => e.name)).toEqual(names.slice(4));
      expect(p3.done).toBe(true);
      const back = await s.eventType.list({ limit: 2, iterator: p3.prevIterator });
      expect(back.data.map((e) => e.name)).toEqual(names.slice(2, 4));
      const desc = await s.eventType.list({ limit: 10, order: Ordering.Descending });
      expect(desc.data.map((e) => e.name)).toEqual([...names].reverse());
    });

    it("refuses names that are not resource.action", async () => {
      for (const name of ["invoicepaid", "invoice paid", "invoice/paid", "invoice..paid", ".paid"]) {
        const err = await sdkError(sdk.svix.eventType.create({ name, description: "bad" }));
        expect(err.code, name).toBe(422);
      }
    });
  });

  describe("endpoints", () => {
    const secret = "whsec_" + Buffer.alloc(32, 7).toString("base64");
    let appId: string;
    beforeAll(async () => {
      appId = (await sdk.svix.application.create({ name: "Endpoints", uid: "ep-app" })).id;
    });

    it("create returns 201 with both field generations; a supplied secret is kept", async () => {
      const ep = await sdk.svix.endpoint.create("ep-app", {
        url: "https://hooks.example.com/herald",
        uid: "primary",
        description: "Primary",
        filterTypes: ["invoice.paid"],
        channels: ["eu"],
        rateLimit: 20,
        metadata: { team: "billing" },
        secret,
      });
      expect(sdk.last().status).toBe(201);
      expect(ep).toMatchObject({
        uid: "primary",
        url: "https://hooks.example.com/herald",
        description: "Primary",
        filterTypes: ["invoice.paid"],
        channels: ["eu"],
        rateLimit: 20,
        throttleRate: 20,
        metadata: { team: "billing" },
        disabled: false,
        version: 1,
      });
      expect(ep.id).toMatch(/^ep_/);
      // The raw response carries the newer names too.
      const raw = await t.api("GET", `/app/ep-app/endpoint/${ep.id}`);
      expect(raw.body).toMatchObject({ eventTypes: ["invoice.paid"], filterTypes: ["invoice.paid"], throttleRate: 20, rateLimit: 20 });
      expect((await sdk.svix.endpoint.getSecret(appId, "primary")).key).toBe(secret);
    });

    it("get, update, patch, delete by id and uid", async () => {
      const ep = await sdk.svix.endpoint.create(appId, { url: "https://hooks.example.com/b", uid: "second" });
      expect((await sdk.svix.endpoint.get("ep-app", "second")).id).toBe(ep.id);

      const updated = await sdk.svix.endpoint.update(appId, "second", {
        url: "https://hooks.example.com/b2",
        filterTypes: ["invoice.paid", "invoice.created"],
        throttleRate: 3,
      });
      expect(sdk.last().status).toBe(200);
      expect(updated).toMatchObject({ id: ep.id, uid: "second", url: "https://hooks.example.com/b2", rateLimit: 3 });
      expect(updated.filterTypes).toEqual(["invoice.paid", "invoice.created"]);

      const created = await sdk.svix.endpoint.update(appId, "third", { url: "https://hooks.example.com/c" });
      expect(sdk.last().status).toBe(201);
      expect(created.uid).toBe("third");

      const paused = await sdk.svix.endpoint.patch(appId, ep.id, { disabled: true, filterTypes: null, description: "paused" });
      expect(paused).toMatchObject({ disabled: true, description: "paused", url: "https://hooks.example.com/b2" });
      expect(paused.filterTypes ?? null).toBeNull();
      const resumed = await sdk.svix.endpoint.patch(appId, "second", { disabled: false });
      expect(resumed.disabled).toBe(false);

      await sdk.svix.endpoint.delete(appId, "second");
      expect(sdk.last().status).toBe(204);
      expect((await sdkError(sdk.svix.endpoint.get(appId, ep.id))).code).toBe(404);
      await sdk.svix.endpoint.delete(appId, created.id);
    });

    it("lists endpoints in pages, both directions", async () => {
      const app = await sdk.svix.application.create({ name: "Many endpoints" });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await sdk.svix.endpoint.create(app.id, { url: `https://hooks.example.com/${i}` })).id);
      const p1 = await sdk.svix.endpoint.list(app.id, { limit: 2 });
      const p2 = await sdk.svix.endpoint.list(app.id, { limit: 2, iterator: p1.iterator });
      const p3 = await sdk.svix.endpoint.list(app.id, { limit: 2, iterator: p2.iterator });
      expect([...p1.data, ...p2.data, ...p3.data].map((e) => e.id)).toEqual(ids);
      expect([p1.done, p2.done, p3.done]).toEqual([false, false, true]);
      const back = await sdk.svix.endpoint.list(app.id, { limit: 2, iterator: p3.prevIterator });
      expect(back.data.map((e) => e.id)).toEqual(ids.slice(2, 4));
      const desc = await sdk.svix.endpoint.list(app.id, { limit: 5, order: Ordering.Descending });
      expect(desc.data.map((e) => e.id)).toEqual([...ids].reverse());
    });

    it("custom headers: replace, read (sensitive values withheld), patch (null removes)", async () => {
      await sdk.svix.endpoint.updateHeaders(appId, "primary", { headers: { "X-Team": "billing", Authorization: "Bearer s3cret" } });
      expect(sdk.last().status).toBe(204);
      const h = await sdk.svix.endpoint.getHeaders(appId, "primary");
      expect(h.headers).toEqual({ "X-Team": "billing" });
      expect(h.sensitive).toEqual(["Authorization"]);
      await sdk.svix.endpoint.patchHeaders(appId, "primary", { headers: { "X-Team": null as unknown as string, "X-Env": "prod" } });
      expect(sdk.last().status).toBe(204);
      const h2 = await sdk.svix.endpoint.getHeaders(appId, "primary");
      expect(h2.headers).toEqual({ "X-Env": "prod" });
      expect(h2.sensitive).toEqual(["Authorization"]);
      const reserved = await sdkError(sdk.svix.endpoint.updateHeaders(appId, "primary", { headers: { "webhook-id": "x" } }));
      expect(reserved.code).toBe(422);
    });

    it("secrets: generated when not supplied, rotated (optionally to a supplied key), invalid ones refused", async () => {
      const ep = await sdk.svix.endpoint.create(appId, { url: "https://hooks.example.com/s" });
      const { key } = await sdk.svix.endpoint.getSecret(appId, ep.id);
      expect(key).toMatch(/^whsec_[A-Za-z0-9+/=]{32,100}$/);

      await sdk.svix.endpoint.rotateSecret(appId, ep.id, {});
      expect(sdk.last().status).toBe(204);
      const rotated = (await sdk.svix.endpoint.getSecret(appId, ep.id)).key;
      expect(rotated).not.toBe(key);
      const mine = "whsec_" + Buffer.alloc(24, 9).toString("base64");
      await sdk.svix.endpoint.rotateSecret(appId, ep.id, { key: mine });
      expect((await sdk.svix.endpoint.getSecret(appId, ep.id)).key).toBe(mine);

      for (const bad of ["whsec_short", "whsec_" + Buffer.alloc(16).toString("base64"), "whsec_" + "!".repeat(40), "x".repeat(201)]) {
        const err = await sdkError(sdk.svix.endpoint.rotateSecret(appId, ep.id, { key: bad }));
        expect(err.code, bad).toBe(422);
        const err2 = await sdkError(sdk.svix.endpoint.create(appId, { url: "https://hooks.example.com/x", secret: bad }));
        expect(err2.code, bad).toBe(422);
      }
      // The secret did not change through the failed attempts.
      expect((await sdk.svix.endpoint.getSecret(appId, ep.id)).key).toBe(mine);
    });

    it("invalid URLs, SSRF-blocked addresses and unknown event types are 422s", async () => {
      for (const url of ["not a url", "ftp://example.com/x", "https://user:pw@example.com/", "http://127.0.0.2/hook", "http://169.254.169.254/latest", "http://[::1]/", "http://10.0.0.1/", "http://[::ffff:127.0.0.2]/"]) {
        const err = await sdkError(sdk.svix.endpoint.create(appId, { url }));
        expect(err.code, url).toBe(422);
        expect(JSON.stringify(err.body), url).toMatch(/url/i);
      }
      const unknown = await sdkError(sdk.svix.endpoint.create(appId, { url: "https://hooks.example.com/u", filterTypes: ["nope.nope"] }));
      expect(unknown.code).toBe(422);
    });

    it("stats count deliveries by status", async () => {
      const stats = await sdk.svix.endpoint.getStats(appId, "primary", { since: new Date(Date.now() - HOUR) });
      expect(stats).toEqual({ success: expect.any(Number), fail: expect.any(Number), pending: expect.any(Number), sending: expect.any(Number), canceled: expect.any(Number) });
    });

    it("recover starts a background task (202, RecoverOut)", async () => {
      const ep = await sdk.svix.endpoint.create(appId, { url: "https://hooks.example.com/r" });
      const out = await sdk.svix.endpoint.recover(appId, ep.id, { since: new Date(Date.now() - HOUR) });
      expect(sdk.last().status).toBe(202);
      expect(out).toMatchObject({ status: "running", task: "endpoint.recover" });
      expect(out.id).toMatch(/^qtask_/);
      const err = await sdkError(sdk.svix.endpoint.recover(appId, ep.id, { since: new Date(Date.now() + HOUR) }));
      expect(err.code).toBe(422);
    });
  });

  describe("messages", () => {
    let appId: string;
    beforeAll(async () => {
      appId = (await sdk.svix.application.create({ name: "Messages", uid: "msg-app" })).id;
    });

    it("publish returns 202 with the MessageOut; get by id and by eventId", async () => {
      const msg = await sdk.svix.message.create("msg-app", {
        eventType: "invoice.paid",
        eventId: "evt-inv-1",
        payload: { invoiceId: "inv_1", amount: 4200 },
        channels: ["eu"],
      });
      expect(sdk.last().status).toBe(202);
      expect(msg).toMatchObject({ eventType: "invoice.paid", eventId: "evt-inv-1", payload: { invoiceId: "inv_1", amount: 4200 }, channels: ["eu"] });
      expect(msg.id).toMatch(/^msg_/);
      expect(msg.timestamp).toBeInstanceOf(Date);
      expect((await sdk.svix.message.get(appId, msg.id)).payload).toEqual({ invoiceId: "inv_1", amount: 4200 });
      expect((await sdk.svix.message.get("msg-app", "evt-inv-1")).id).toBe(msg.id);
      expect((await sdk.svix.message.get(appId, msg.id, { withContent: false })).payload).toEqual({});
    });

    it("a duplicate eventId within 24 h is a 409, and nothing is stored for it", async () => {
      await sdk.svix.message.create(appId, { eventType: "invoice.paid", eventId: "evt-dup", payload: { n: 1 } });
      const err = await sdkError(sdk.svix.message.create(appId, { eventType: "invoice.paid", eventId: "evt-dup", payload: { n: 2 } }));
      expect(err.code).toBe(409);
      expect(await t.db.message.count({ where: { applicationId: appId, eventId: "evt-dup" } })).toBe(1);
    });

    it("idempotency-key: a retried publish returns the same message and stores one; another body is a 409", async () => {
      const a = await sdk.svix.message.create(appId, { eventType: "invoice.paid", payload: { n: 10 } }, { idempotencyKey: "pub-1" });
      const b = await sdk.svix.message.create(appId, { eventType: "invoice.paid", payload: { n: 10 } }, { idempotencyKey: "pub-1" });
      expect(b.id).toBe(a.id);
      expect(sdk.last().status).toBe(202);
      expect(sdk.last().headers.get("idempotent-replayed")).toBe("true");
      expect(await t.db.message.count({ where: { applicationId: appId, payload: { equals: { n: 10 } } } })).toBe(1);
      const err = await sdkError(sdk.svix.message.create(appId, { eventType: "invoice.paid", payload: { n: 11 } }, { idempotencyKey: "pub-1" }));
      expect(err.code).toBe(409);
      expect(err.body).toMatchObject({ code: "idempotency_conflict" });
    });

    it("the application can be created on first publish (MessageIn.application)", async () => {
      const msg = await sdk.svix.message.create("auto-created", {
        eventType: "user.signed_up",
        payload: { userId: "u1" },
        application: { name: "Auto", uid: "auto-created" },
      });
      expect((await sdk.svix.application.get("auto-created")).name).toBe("Auto");
      expect((await sdk.svix.message.get("auto-created", msg.id)).eventType).toBe("user.signed_up");
    });

    it("unknown or archived event types, non-object payloads and scheduled delivery are refused", async () => {
      expect((await sdkError(sdk.svix.message.create(appId, { eventType: "no.such", payload: {} }))).code).toBe(422);
      expect((await sdkError(sdk.svix.message.create(appId, { eventType: "invoice.paid", payload: [1, 2] }))).code).toBe(422);
      const later = await sdkError(sdk.svix.message.create(appId, { eventType: "invoice.paid", payload: {}, deliverAt: new Date(Date.now() + HOUR) }));
      expect(later.code).toBe(422);
      expect(JSON.stringify(later.body)).toMatch(/deliverAt/);
      const missing = await sdkError(sdk.svix.message.create("no-such-app", { eventType: "invoice.paid", payload: {} }));
      expect(missing.code).toBe(404);
    });

    it("lists messages newest first in pages, forwards and backwards", async () => {
      const app = await sdk.svix.application.create({ name: "Paged messages" });
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) ids.push((await sdk.svix.message.create(app.id, { eventType: "invoice.created", payload: { i } })).id);
      const newestFirst = [...ids].reverse();
      const seen: MessageOut[] = [];
      let iterator: string | null | undefined;
      const prevs: (string | null | undefined)[] = [];
      for (let page = 0; page < 10; page++) {
        const res = await sdk.svix.message.list(app.id, { limit: 3, iterator });
        seen.push(...res.data);
        prevs.push(res.prevIterator);
        if (res.done) break;
        iterator = res.iterator;
      }
      expect(seen.map((m) => m.id)).toEqual(newestFirst);
      expect(seen[0]!.payload).toEqual({ i: 6 });
      const back = await sdk.svix.message.list(app.id, { limit: 3, iterator: prevs[2] });
      expect(back.data.map((m) => m.id)).toEqual(newestFirst.slice(3, 6));
      const withoutContent = await sdk.svix.message.list(app.id, { limit: 1, withContent: false });
      expect(withoutContent.data[0]!.payload).toEqual({});
    });

    it("filters messages by event types (a list), channel and time", async () => {
      const app = await sdk.svix.application.create({ name: "Filtered" });
      const before = new Date();
      await new Promise((r) => setTimeout(r, 5));
      const paid = await sdk.svix.message.create(app.id, { eventType: "invoice.paid", payload: {}, channels: ["eu"] });
      const created = await sdk.svix.message.create(app.id, { eventType: "invoice.created", payload: {} });
      const signup = await sdk.svix.message.create(app.id, { eventType: "user.signed_up", payload: {}, channels: ["us"] });
      const byTypes = await sdk.svix.message.list(app.id, { eventTypes: ["invoice.paid", "user.signed_up"] });
      expect(byTypes.data.map((m) => m.id)).toEqual([signup.id, paid.id]);
      const byChannel = await sdk.svix.message.list(app.id, { channel: "eu" });
      expect(byChannel.data.map((m) => m.id)).toEqual([paid.id]);
      const after = await sdk.svix.message.list(app.id, { after: before });
      expect(after.data.map((m) => m.id)).toEqual([signup.id, created.id, paid.id]);
      const none = await sdk.svix.message.list(app.id, { before });
      expect(none.data).toEqual([]);
    });

    it("expunge content removes the payload; the message stays", async () => {
      const msg = await sdk.svix.message.create(appId, { eventType: "invoice.paid", payload: { card: "4242" } });
      await sdk.svix.message.expungeContent(appId, msg.id);
      expect(sdk.last().status).toBe(204);
      const after = await sdk.svix.message.get(appId, msg.id);
      expect(after.id).toBe(msg.id);
      expect(after.payload).toEqual({});
    });
  });

  describe("auth", () => {
    it("portal access: a magic link and token for one application; expire-all revokes it", async () => {
      await sdk.svix.application.create({ name: "Portal", uid: "portal-app" });
      const access = await sdk.svix.authentication.appPortalAccess("portal-app", { featureFlags: [], readOnly: null });
      expect(sdk.last().status).toBe(200);
      expect(access.url).toContain("#key=");
      expect(access.url).toContain(access.token);

      const created = await sdk.svix.authentication.appPortalAccess("portal-new", { application: { name: "New via portal", uid: "portal-new" } });
      expect(created.token).toBeTruthy();
      expect((await sdk.svix.application.get("portal-new")).name).toBe("New via portal");

      await sdk.svix.authentication.expireAll("portal-app", {});
      expect(sdk.last().status).toBe(204);
      const exchange = await fetch(`${baseUrl()}/api/v1/auth/portal-session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: access.token }),
      });
      expect(exchange.status).toBe(401);
    });

    it("logout ends a portal session; an API key cannot log out", async () => {
      await sdk.svix.application.create({ name: "Logout", uid: "logout-app" });
      const { token } = await sdk.svix.authentication.appPortalAccess("logout-app", {});
      const res = await fetch(`${baseUrl()}/api/v1/auth/portal-session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token }),
      });
      expect(res.status).toBe(200);
      const { session } = (await res.json()) as { session: string };

      const portal = recordingSvix(session);
      expect((await portal.svix.application.get("logout-app")).uid).toBe("logout-app");
      await portal.svix.authentication.logout();
      expect(portal.last().status).toBe(204);
      expect((await sdkError(portal.svix.application.get("logout-app"))).code).toBe(401);

      const err = await sdkError(sdk.svix.authentication.logout());
      expect(err.code).toBe(403);
    });

    it("the portal token (hpt_) is a bearer for its application, like a session of its link; logout invalidates it", async () => {
      await sdk.svix.eventType.create({ name: "invoice.beta", description: "behind a flag", featureFlag: "beta" });
      await sdk.svix.application.create({ name: "Bearer", uid: "bearer-app" });
      await sdk.svix.application.create({ name: "Other", uid: "bearer-other" });
      const ep = await sdk.svix.endpoint.create("bearer-app", { url: "https://hooks.example.com/bearer" });
      const otherEp = await sdk.svix.endpoint.create("bearer-other", { url: "https://hooks.example.com/other" });
      const access = await sdk.svix.authentication.appPortalAccess("bearer-app", { featureFlags: ["portal.no-secrets", "beta"] });
      expect(access.token).toMatch(/^hpt_/);
      const portal = recordingSvix(access.token);

      // Scope: its application only; operator-only operations stay so.
      expect((await portal.svix.application.get("bearer-app")).uid).toBe("bearer-app");
      expect((await portal.svix.endpoint.list("bearer-app")).data.map((e) => e.id)).toEqual([ep.id]);
      expect((await sdkError(portal.svix.endpoint.list("bearer-other"))).code).toBe(404);
      expect((await sdkError(portal.svix.endpoint.get("bearer-app", otherEp.id))).code).toBe(404);
      expect((await sdkError(portal.svix.message.create("bearer-app", { eventType: "invoice.paid", payload: {} }))).code).toBe(403);
      // Writes are allowed (not read-only); its flags are its capabilities and its catalog.
      expect((await portal.svix.endpoint.patch("bearer-app", ep.id, { description: "via the token" })).description).toBe("via the token");
      const noSecret = await sdkError(portal.svix.endpoint.getSecret("bearer-app", ep.id));
      expect(noSecret.code).toBe(403);
      expect(noSecret.body).toMatchObject({ code: "forbidden" });
      const me = await fetch(`${baseUrl()}/api/v1/portal/session`, { headers: { authorization: `Bearer ${access.token}` } });
      expect(await me.json()).toMatchObject({
        application: { uid: "bearer-app" },
        featureFlags: ["portal.no-secrets", "beta"],
        capabilities: { write: true, secrets: false },
      });
      const catalog = await fetch(`${baseUrl()}/api/v1/portal/event-type`, { headers: { authorization: `Bearer ${access.token}` } });
      expect(((await catalog.json()) as { data: { name: string }[] }).data.map((e) => e.name)).toContain("invoice.beta");

      // A read-only link's token changes nothing (and may still reveal the secret); without the
      // flag, the flagged event type is not in its catalog.
      const readOnlyToken = (await sdk.svix.authentication.appPortalAccess("bearer-app", { readOnly: true })).token;
      const readOnly = recordingSvix(readOnlyToken);
      expect((await readOnly.svix.endpoint.getSecret("bearer-app", ep.id)).key).toMatch(/^whsec_/);
      expect((await sdkError(readOnly.svix.endpoint.patch("bearer-app", ep.id, { description: "no" }))).code).toBe(403);
      const plain = await fetch(`${baseUrl()}/api/v1/portal/event-type`, { headers: { authorization: `Bearer ${readOnlyToken}` } });
      expect(((await plain.json()) as { data: { name: string }[] }).data.map((e) => e.name)).not.toContain("invoice.beta");

      // Expiry: the link's, as for its sessions.
      const short = await sdk.svix.authentication.appPortalAccess("bearer-app", { expiry: 60 });
      await t.db.portalToken.update({ where: { hash: hashToken(short.token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
      const expired = await sdkError(recordingSvix(short.token).svix.endpoint.list("bearer-app"));
      expect([expired.code, expired.body.code]).toEqual([401, "portal_link_expired"]);

      // Logout with the token: it stops working, as a bearer and as a link, and so do its sessions.
      const exchanged = await fetch(`${baseUrl()}/api/v1/auth/portal-session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: access.token }),
      });
      const session = recordingSvix(((await exchanged.json()) as { session: string }).session);
      expect((await session.svix.endpoint.list("bearer-app")).data).toHaveLength(1);
      await portal.svix.authentication.logout();
      expect(portal.last().status).toBe(204);
      const after = await sdkError(portal.svix.endpoint.list("bearer-app"));
      expect([after.code, after.body.code]).toEqual([401, "portal_link_invalid"]);
      expect((await sdkError(session.svix.endpoint.list("bearer-app"))).code).toBe(401);
      const again = await fetch(`${baseUrl()}/api/v1/auth/portal-session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: access.token }),
      });
      expect(again.status).toBe(401);
      // The read-only link was not logged out; expire-all revokes it too.
      await sdk.svix.authentication.expireAll("bearer-app", {});
      const revoked = await sdkError(readOnly.svix.endpoint.list("bearer-app"));
      expect([revoked.code, revoked.body.code]).toEqual([401, "portal_link_revoked"]);
    });
  });

  describe("deliveries (need the worker)", () => {
    let receiver: Receiver;
    let appId: string;
    let ep: EndpointOut;
    let msg: MessageOut;
    const secret = "whsec_" + Buffer.alloc(32, 3).toString("base64");

    beforeAll(async () => {
      receiver = await startReceiver();
      appId = (await sdk.svix.application.create({ name: "Deliveries", uid: "dlv-app" })).id;
      ep = await sdk.svix.endpoint.create(appId, { url: receiver.url, uid: "receiver", secret, filterTypes: ["invoice.paid"] });
      // Not a target (filter), so it appears only once resent to.
      await sdk.svix.endpoint.create(appId, { url: receiver.url, uid: "other", filterTypes: ["user.signed_up"] });
      msg = await sdk.svix.message.create(appId, { eventType: "invoice.paid", eventId: "dlv-1", payload: { invoiceId: "inv_9" } });
    });
    afterAll(async () => {
      await receiver?.close();
    });

    const attemptsOf = () => sdk.svix.messageAttempt.listByMsg(appId, msg.id);

    it("a published message is delivered, signed so the SDK's own Webhook verifier accepts it", async () => {
      // Bounded generously: on a loaded CI machine the worker may take a while to get to it.
      await receiver.waitFor(1, 60_000);
      const req = receiver.received[0]!;
      const verified = new Webhook(secret).verify(req.body, req.headers) as { type?: string; data?: unknown };
      expect(JSON.stringify(verified)).toContain("inv_9");
      expect(req.headers["webhook-id"]).toBe(msg.id);

      const list = await pollUntil(attemptsOf, (l) => l.data.length >= 1);
      expect(list.data).toHaveLength(1);
      expect(list.data[0]).toMatchObject({ msgId: msg.id, endpointId: ep.id, status: MessageStatus.Success, statusText: "success", responseStatusCode: 200, triggerType: 0, url: receiver.url });
      expect(list.data[0]!.id).toMatch(/^atmpt_/);
    }, 90_000);

    it("attempts by endpoint, with filters", async () => {
      const list = await pollUntil(() => sdk.svix.messageAttempt.listByEndpoint(appId, "receiver"), (l) => l.data.length >= 1);
      expect(list.data.map((a) => a.msgId)).toContain(msg.id);
      const ok = await sdk.svix.messageAttempt.listByEndpoint(appId, ep.id, { status: MessageStatus.Success, statusCodeClass: 200, eventTypes: ["invoice.paid"], withMsg: true });
      expect(ok.data.length).toBeGreaterThanOrEqual(1);
      expect(ok.data[0]!.msg?.id).toBe(msg.id);
      const failed = await sdk.svix.messageAttempt.listByEndpoint(appId, ep.id, { status: MessageStatus.Fail });
      expect(failed.data).toEqual([]);
      const fiveHundreds = await sdk.svix.messageAttempt.listByEndpoint(appId, ep.id, { statusCodeClass: 500 });
      expect(fiveHundreds.data).toEqual([]);
    }, 30_000);

    it("one attempt by id; expunging its content keeps the record", async () => {
      const list = await pollUntil(attemptsOf, (l) => l.data.length >= 1);
      const first = list.data[0];
      expect(first).toBeDefined();
      const one = await sdk.svix.messageAttempt.get(appId, msg.id, first!.id);
      expect(one).toMatchObject({ id: first!.id, msgId: msg.id, response: "ok" });
      await sdk.svix.messageAttempt.expungeContent(appId, msg.id, first!.id);
      expect(sdk.last().status).toBe(204);
      const after = await sdk.svix.messageAttempt.get(appId, "dlv-1", first!.id);
      expect(after.response).toBe("");
      expect(after.responseStatusCode).toBe(200);
    }, 30_000);

    it("attempted messages of an endpoint carry the delivery status", async () => {
      const list = await pollUntil(
        () => sdk.svix.messageAttempt.listAttemptedMessages(appId, ep.id),
        (l) => l.data.some((m) => m.id === msg.id && m.status === MessageStatus.Success),
      );
      const row = list.data.find((m) => m.id === msg.id);
      expect(row).toMatchObject({ eventType: "invoice.paid", status: MessageStatus.Success, statusText: "success", payload: { invoiceId: "inv_9" } });
      const pending = await sdk.svix.messageAttempt.listAttemptedMessages(appId, ep.id, { status: MessageStatus.Pending });
      expect(pending.data.map((m) => m.id)).not.toContain(msg.id);
    }, 30_000);

    it("attempted destinations of a message", async () => {
      const list = await pollUntil(
        () => sdk.svix.messageAttempt.listAttemptedDestinations(appId, msg.id),
        (l) => l.data.some((d) => d.status === MessageStatus.Success),
      );
      expect(list.data.map((d) => d.id)).toEqual([ep.id]);
      expect(list.data[0]).toMatchObject({ url: receiver.url, status: MessageStatus.Success, statusText: "success", filterTypes: ["invoice.paid"] });
    }, 30_000);

    it("resend (202) delivers again with the same webhook-id, as a manual attempt", async () => {
      await pollUntil(attemptsOf, (l) => l.data.length >= 1);
      const before = receiver.received.length;
      const out = await sdk.svix.messageAttempt.resend(appId, msg.id, "receiver");
      expect(sdk.last().status).toBe(202);
      expect(out).toEqual({});
      await receiver.waitFor(before + 1, 45_000);
      expect(receiver.received[before]!.headers["webhook-id"]).toBe(msg.id);
      const list = await pollUntil(attemptsOf, (l) => l.data.length >= 2);
      expect(list.data.map((a) => a.triggerType).sort()).toEqual([0, 1]);

      // Resending to an endpoint that was not a target creates its delivery.
      await sdk.svix.messageAttempt.resend(appId, msg.id, "other");
      const dest = await pollUntil(
        () => sdk.svix.messageAttempt.listAttemptedDestinations(appId, msg.id),
        (l) => l.data.length === 2,
      );
      expect(dest.data).toHaveLength(2);
    }, 90_000);

    it("send-example delivers a sample of the event type to this endpoint only", async () => {
      const before = receiver.received.length;
      const out = await sdk.svix.endpoint.sendExample(appId, ep.id, { eventType: "invoice.paid" });
      expect(sdk.last().status).toBe(200);
      expect(out).toMatchObject({ eventType: "invoice.paid" });
      // Other deliveries to the same receiver (the resend above) may still be arriving: wait for this one.
      const ids = await pollUntil(
        () => Promise.resolve(receiver.received.slice(before).map((r) => r.headers["webhook-id"])),
        (got) => got.includes(out.id),
        45_000,
      );
      expect(ids).toContain(out.id);
      const dest = await sdk.svix.messageAttempt.listAttemptedDestinations(appId, out.id);
      expect(dest.data.map((d) => d.id)).toEqual([ep.id]);
    }, 60_000);

    it("stats count the successful deliveries", async () => {
      const stats = await pollUntil(() => sdk.svix.endpoint.getStats(appId, ep.id), (s) => s.success >= 2);
      expect(stats.success).toBeGreaterThanOrEqual(2);
      expect(stats.fail).toBe(0);
    }, 30_000);
  });
});
