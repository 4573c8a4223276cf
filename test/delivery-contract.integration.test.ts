import { verify } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { ed25519PublicKey, generateWebhookSecret } from "@/lib/signing/secrets";
import { createTenant, type Tenant } from "./helpers/tenant";
import { portalSession } from "./helpers/portal";
import { receiverPool } from "./helpers/receiver";
import { answers, EVENT_TYPE, makeApp, makeEndpoint, publish, signatureHeaders, waitUntil } from "./helpers/delivery";

// The delivery contract against real loopback receivers, through the shared test server and
// worker (default retry schedule: the first attempt is immediate): Standard Webhooks signing
// verified with both libraries, rotation, ed25519, the envelope and raw formats, custom headers,
// and how answers are handled (410, non-retryable 4xx, redirects, huge bodies, TLS/refused errors).

describe("delivery contract", () => {
  let t: Tenant;
  const receivers = receiverPool();
  const receiver = receivers.start;

  beforeAll(async () => {
    t = await createTenant("delivery-contract");
  });
  afterAll(async () => {
    await receivers.closeAll();
  });

  const delivery = (msgId: string, endpointId: string) =>
    t.db.delivery.findFirstOrThrow({ where: { messageId: msgId, endpointId } });
  const attempts = (msgId: string, endpointId: string) =>
    t.db.attempt.findMany({ where: { messageId: msgId, endpointId }, orderBy: { id: "asc" } });

  describe("signing and payload", () => {
    it("signs per Standard Webhooks; the standardwebhooks and svix libraries both verify what arrives", async () => {
      const appId = await makeApp(t.api);
      const rx = await receiver();
      const secret = generateWebhookSecret();
      const ep = await makeEndpoint(t.api, appId, { url: rx.url, secret });
      expect(ep.secret).toBe(secret);
      const msgId = await publish(
        t.api,
        appId,
        { orderId: "o_1", amount: 4200, note: "naïve ☕" },
        { previous: { amount: 4000 } },
      );
      await rx.waitFor(1);
      const r = rx.received[0]!;

      expect(r.headers["webhook-id"]).toBe(msgId);
      expect(r.headers["svix-id"]).toBe(msgId);
      expect(r.headers["svix-timestamp"]).toBe(r.headers["webhook-timestamp"]);
      expect(r.headers["svix-signature"]).toBe(r.headers["webhook-signature"]);
      expect(Math.abs(Number(r.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(300);
      expect(r.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(r.headers["user-agent"]).toMatch(/Herald/);

      const body = JSON.parse(r.body);
      expect(body).toEqual({
        id: msgId,
        type: "order.paid",
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        version: 1,
        data: { orderId: "o_1", amount: 4200, note: "naïve ☕" },
        previous: { amount: 4000 },
      });
      expect(new StandardWebhook(secret).verify(r.body, signatureHeaders(r))).toEqual(body);
      expect(new SvixWebhook(secret).verify(r.body, signatureHeaders(r))).toEqual(body);
      expect(() => new StandardWebhook(generateWebhookSecret()).verify(r.body, signatureHeaders(r))).toThrow();

      // The attempt record holds exactly what was sent.
      const [a] = await waitUntil(
        "the attempt record",
        () => attempts(msgId, ep.id),
        (x) => x.length === 1,
      );
      expect(a).toMatchObject({
        status: "success",
        responseStatus: 200,
        triggerType: "scheduled",
        requestBody: r.body,
      });
      // Every header Herald set is stored with the value that arrived (the receiver also sees the
      // transport's own: host, connection).
      const stored = a!.requestHeaders as Record<string, string>;
      for (const [name, value] of Object.entries(stored)) expect(r.headers[name], name).toBe(value);
      expect(Object.keys(stored).sort()).toEqual(
        [
          "content-length",
          "content-type",
          "user-agent",
          "webhook-id",
          "webhook-timestamp",
          "webhook-signature",
          "svix-id",
          "svix-timestamp",
          "svix-signature",
        ].sort(),
      );
      expect(a!.responseBody).toBe("ok");
      expect(await delivery(msgId, ep.id)).toMatchObject({ status: "succeeded", attemptCount: 1, lastStatusCode: 200 });
    });

    it("sends the published payload verbatim to applications in raw format", async () => {
      const rawApp = await makeApp(t.api, { payloadFormat: "raw" });
      const rx = await receiver();
      const ep = await makeEndpoint(t.api, rawApp, { url: rx.url });
      await publish(t.api, rawApp, { orderId: "o_raw", items: [1, 2] });
      await rx.waitFor(1);
      expect(JSON.parse(rx.received[0]!.body)).toEqual({ orderId: "o_raw", items: [1, 2] });
      expect(
        new StandardWebhook(ep.secret).verify(rx.received[0]!.body, signatureHeaders(rx.received[0]!)),
      ).toBeTruthy();
    });

    it("fans a message out to each of 20 endpoints once, and refuses its eventId a second time", async () => {
      // Publishing stores a message with up to 16 deliveries in one statement; more take a second.
      const appId = await makeApp(t.api);
      const rx = await receiver();
      const eps = [];
      for (let i = 0; i < 20; i++) eps.push(await makeEndpoint(t.api, appId, { url: `${rx.url}/${i}` }));
      const msgId = await publish(t.api, appId, { orderId: "o_many" }, { eventId: `evt_many_${appId}` });
      await rx.waitFor(20);
      expect(rx.received.map((r) => r.path).sort()).toEqual(eps.map((_, i) => new URL(`${rx.url}/${i}`).pathname).sort());
      expect(new Set(rx.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([msgId]));
      expect(await t.db.delivery.count({ where: { messageId: msgId } })).toBe(20);
      const again = await t.api("POST", `/app/${appId}/msg`, {
        eventType: EVENT_TYPE,
        eventId: `evt_many_${appId}`,
        payload: { orderId: "o_many" },
      });
      expect(again.status).toBe(409);
      expect(JSON.stringify(again.body)).toContain(msgId);
    });

    it("signs with both secrets during a rotation, space-separated; each secret verifies", async () => {
      const appId = await makeApp(t.api);
      const rx = await receiver();
      const ep = await makeEndpoint(t.api, appId, { url: rx.url });
      const rotated = await t.api("POST", `/app/${appId}/endpoint/${ep.id}/secret/rotate`, {});
      expect(rotated.status).toBe(204);
      const next = (await t.api("GET", `/app/${appId}/endpoint/${ep.id}/secret`)).body.key as string;
      expect(next).not.toBe(ep.secret);
      await publish(t.api, appId, { rotation: true });
      await rx.waitFor(1);
      const r = rx.received[0]!;
      const sigs = r.headers["webhook-signature"]!.split(" ");
      expect(sigs).toHaveLength(2);
      expect(sigs.every((s) => s.startsWith("v1,"))).toBe(true);
      for (const secret of [ep.secret, next]) {
        expect(new StandardWebhook(secret).verify(r.body, signatureHeaders(r))).toBeTruthy();
        expect(new SvixWebhook(secret).verify(r.body, signatureHeaders(r))).toBeTruthy();
      }
    });

    it("signs ed25519 endpoints with v1a, verifiable with the public key only", async () => {
      const appId = await makeApp(t.api);
      const rx = await receiver();
      const ep = await makeEndpoint(t.api, appId, { url: rx.url, signing: "ed25519" });
      expect(ep.secret).toMatch(/^whpk_/);
      await publish(t.api, appId, { asymmetric: true });
      await rx.waitFor(1);
      const r = rx.received[0]!;
      const [scheme, sig] = r.headers["webhook-signature"]!.split(",");
      expect(scheme).toBe("v1a");
      const content = Buffer.from(`${r.headers["webhook-id"]}.${r.headers["webhook-timestamp"]}.${r.body}`);
      expect(verify(null, content, ed25519PublicKey(ep.secret), Buffer.from(sig!, "base64"))).toBe(true);
      expect(
        verify(null, Buffer.from(content.toString() + " "), ed25519PublicKey(ep.secret), Buffer.from(sig!, "base64")),
      ).toBe(false);
      // Herald's private key (whsk_) never leaves it: not through the API, not through the portal.
      const portal = await portalSession(t, appId);
      for (const read of [
        t.api("GET", `/app/${appId}/endpoint/${ep.id}`),
        t.api("GET", `/app/${appId}/endpoint/${ep.id}/secret`),
        t.api("GET", `/app/${appId}/endpoint`),
        portal.api("GET", `/app/${appId}/endpoint/${ep.id}/secret`),
        portal.api("GET", `/app/${appId}/endpoint`),
      ]) {
        const res = await read;
        expect(res.status).toBe(200);
        expect(JSON.stringify(res.body)).not.toContain("whsk_");
      }
      expect((await t.api("GET", `/app/${appId}/endpoint/${ep.id}/secret`)).body.key).toBe(ep.secret);
    });

    it("sends the endpoint's custom headers, never lets them replace Herald's, and redacts credentials in the log", async () => {
      const appId = await makeApp(t.api);
      const rx = await receiver();
      const ep = await makeEndpoint(t.api, appId, { url: rx.url });
      const bad = await t.api("PUT", `/app/${appId}/endpoint/${ep.id}/headers`, {
        headers: { "Webhook-Signature": "forged" },
      });
      expect(bad.status).toBe(422);
      const ok = await t.api("PUT", `/app/${appId}/endpoint/${ep.id}/headers`, {
        headers: { "X-Tenant": "acme", Authorization: "Bearer s3cret" },
      });
      expect(ok.status).toBe(204);
      const msgId = await publish(t.api, appId, { headers: true });
      await rx.waitFor(1);
      expect(rx.received[0]!.headers).toMatchObject({ "x-tenant": "acme", authorization: "Bearer s3cret" });
      const [a] = await waitUntil(
        "the attempt record",
        () => attempts(msgId, ep.id),
        (x) => x.length === 1,
      );
      expect(a!.requestHeaders).toMatchObject({ "x-tenant": "acme", authorization: "[redacted]", "webhook-id": msgId });
    });
  });

  describe("answers", () => {
    it("410 Gone disables the endpoint at once and dead-letters the delivery", async () => {
      const appId = await makeApp(t.api);
      const rx = await receiver(answers(410));
      const ep = await makeEndpoint(t.api, appId, { url: rx.url });
      const msgId = await publish(t.api, appId, { gone: true });
      const d = await waitUntil(
        "the delivery to be dead-lettered",
        () => delivery(msgId, ep.id),
        (x) => x.status === "failed",
      );
      expect(d).toMatchObject({ deadReason: "http_410", nextAttemptAt: null, lastStatusCode: 410 });
      const after = await waitUntil(
        "the endpoint to be disabled",
        () => t.api("GET", `/app/${appId}/endpoint/${ep.id}`),
        (r) => r.body.state === "disabled",
      );
      expect(after.body).toMatchObject({
        disabled: true,
        state: "disabled",
        disabledReason: expect.stringMatching(/410/),
      });
      // New messages are not sent to it any more.
      await publish(t.api, appId, { after: "gone" });
      expect(await t.db.delivery.count({ where: { endpointId: ep.id } })).toBe(1);
    });

    it.each([400, 401, 404, 422])(
      "HTTP %i is not retried: straight to the dead letter after one attempt",
      async (status) => {
        const appId = await makeApp(t.api);
        const rx = await receiver(answers(status));
        const ep = await makeEndpoint(t.api, appId, { url: rx.url });
        const msgId = await publish(t.api, appId, { status });
        const d = await waitUntil(
          "dead letter",
          () => delivery(msgId, ep.id),
          (x) => x.status === "failed",
        );
        expect(d).toMatchObject({ deadReason: `http_${status}`, nextAttemptAt: null, attemptCount: 1 });
        expect(await attempts(msgId, ep.id)).toHaveLength(1);
        expect(rx.received).toHaveLength(1);
      },
    );

    it.each([408, 500, 503])("HTTP %i is retried on the schedule (next attempt about 5 s later)", async (status) => {
      const appId = await makeApp(t.api);
      const rx = await receiver(answers(status, 200));
      const ep = await makeEndpoint(t.api, appId, { url: rx.url });
      const msgId = await publish(t.api, appId, { status });
      const d = await waitUntil(
        "the first failure",
        () => delivery(msgId, ep.id),
        (x) => x.attemptCount >= 1,
      );
      expect(d.status === "pending" || d.status === "sending" || d.status === "succeeded").toBe(true);
      const [first] = await attempts(msgId, ep.id);
      if (d.status === "pending") {
        const delay = d.nextAttemptAt!.getTime() - first!.createdAt.getTime();
        expect(delay).toBeGreaterThanOrEqual(3_900);
        expect(delay).toBeLessThanOrEqual(6_500);
      }
      await waitUntil(
        "the retry to succeed",
        () => delivery(msgId, ep.id),
        (x) => x.status === "succeeded",
      );
      const all = await attempts(msgId, ep.id);
      expect(all.map((a) => a.responseStatus)).toEqual([status, 200]);
      expect(new Set(rx.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([msgId]));
    });

    it("does not follow redirects: a 3xx is a failed attempt and the target sees nothing", async () => {
      const appId = await makeApp(t.api);
      const target = await receiver();
      const rx = await receiver((_r, res) => void res.writeHead(302, { location: target.url }).end());
      const ep = await makeEndpoint(t.api, appId, { url: rx.url });
      const msgId = await publish(t.api, appId, { redirect: true });
      const d = await waitUntil(
        "the attempt",
        () => delivery(msgId, ep.id),
        (x) => x.attemptCount >= 1,
      );
      expect(d.status).toBe("pending");
      const [a] = await attempts(msgId, ep.id);
      expect(a).toMatchObject({ status: "fail", responseStatus: 302 });
      expect((a!.responseHeaders as Record<string, string>).location).toBe(target.url);
      expect(target.received).toHaveLength(0);
    });

    it("reads at most 64 KiB of a huge answer and drops the connection (a 1 GB body is never downloaded)", async () => {
      const appId = await makeApp(t.api);
      const GB = 1024 ** 3;
      let written = 0;
      let aborted = false;
      const chunk = Buffer.alloc(64 * 1024, "x");
      const rx = await receiver((_r, res) => {
        res.writeHead(200, { "content-type": "text/plain", "content-length": String(GB) });
        res.on("close", () => (aborted = written < GB));
        const pump = () => {
          while (written < GB && !res.destroyed) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once("drain", pump);
          }
          if (written >= GB) res.end();
        };
        pump();
      });
      const ep = await makeEndpoint(t.api, appId, { url: rx.url });
      const msgId = await publish(t.api, appId, { huge: true });
      const d = await waitUntil(
        "the delivery",
        () => delivery(msgId, ep.id),
        (x) => x.status === "succeeded",
      );
      expect(d.lastStatusCode).toBe(200);
      const [a] = await attempts(msgId, ep.id);
      expect(a!.responseTruncated).toBe(true);
      expect(Buffer.byteLength(a!.responseBody!)).toBe(64 * 1024);
      await waitUntil(
        "the connection to be dropped",
        () => Promise.resolve(aborted),
        (x) => x,
        10_000,
      );
      // Only socket buffers' worth was ever sent: the worker stopped reading at 64 KiB.
      expect(written).toBeLessThan(64 * 1024 * 1024);
    });

    it("classifies connection and DNS errors (refused, TLS, dns) and retries them on the schedule", async () => {
      const appId = await makeApp(t.api);
      const closed = await receiver();
      const refusedUrl = closed.url;
      await closed.close();
      const plain = await receiver();
      const refused = await makeEndpoint(t.api, appId, { url: refusedUrl });
      const tls = await makeEndpoint(t.api, appId, { url: plain.url.replace("http://", "https://") });
      // .invalid never resolves (RFC 6761).
      const dns = await makeEndpoint(t.api, appId, { url: "http://no-such-host.invalid/webhook" });
      const msgId = await publish(t.api, appId, { errors: true });
      for (const [ep, cls] of [
        [refused, "refused"],
        [tls, "tls"],
        [dns, "dns"],
      ] as const) {
        const [first] = await waitUntil(
          `a ${cls} attempt`,
          () => attempts(msgId, ep.id),
          (x) => x.length >= 1,
        );
        expect(first).toMatchObject({ status: "fail", responseStatus: 0, errorClass: cls });
        // Retryable: the next attempt is about 5 s (±20%) after the first.
        const d = await delivery(msgId, ep.id);
        expect(d.status).toBe("pending");
        const delay = d.nextAttemptAt!.getTime() - first!.createdAt.getTime();
        expect(delay).toBeGreaterThanOrEqual(3_900);
        expect(delay).toBeLessThanOrEqual(6_500);
      }
    });
  });

  describe("manual resend", () => {
    it("is a new attempt of the same delivery (same webhook-id, trigger manual), also from the dead letter", async () => {
      const appId = await makeApp(t.api);
      let status = 404;
      const rx = await receiver((_r, res) => void res.writeHead(status).end());
      const ep = await makeEndpoint(t.api, appId, { url: rx.url });
      const msgId = await publish(t.api, appId, { resend: true });
      await waitUntil(
        "dead letter",
        () => delivery(msgId, ep.id),
        (x) => x.status === "failed",
      );
      status = 200;
      const res = await t.api("POST", `/app/${appId}/msg/${msgId}/endpoint/${ep.id}/resend`);
      expect(res.status).toBe(202);
      const d = await waitUntil(
        "the resend to succeed",
        () => delivery(msgId, ep.id),
        (x) => x.status === "succeeded",
      );
      expect(d).toMatchObject({ deadReason: null, attemptCount: 2 });
      expect(rx.received.map((r) => r.headers["webhook-id"])).toEqual([msgId, msgId]);
      const list = await t.api("GET", `/app/${appId}/attempt/msg/${msgId}`);
      expect(list.body.data.map((a: { triggerType: number; status: number }) => [a.triggerType, a.status])).toEqual([
        [1, 0],
        [0, 2],
      ]);
    });

    it("a failed manual attempt leaves a delivered delivery delivered; a paused endpoint refuses resends", async () => {
      const appId = await makeApp(t.api);
      let status = 200;
      const rx = await receiver((_r, res) => void res.writeHead(status).end());
      const ep = await makeEndpoint(t.api, appId, { url: rx.url });
      const msgId = await publish(t.api, appId, { resend: 2 });
      await waitUntil(
        "delivered",
        () => delivery(msgId, ep.id),
        (x) => x.status === "succeeded",
      );
      status = 500;
      expect((await t.api("POST", `/app/${appId}/msg/${msgId}/endpoint/${ep.id}/resend`)).status).toBe(202);
      await waitUntil(
        "the manual attempt",
        () => attempts(msgId, ep.id),
        (x) => x.length === 2,
      );
      expect(await delivery(msgId, ep.id)).toMatchObject({ status: "succeeded", attemptCount: 2 });
      expect((await t.api("PATCH", `/app/${appId}/endpoint/${ep.id}`, { disabled: true })).status).toBe(200);
      const refused = await t.api("POST", `/app/${appId}/msg/${msgId}/endpoint/${ep.id}/resend`);
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe("endpoint_not_active");
    });
  });

  describe("metrics", () => {
    it("serves Prometheus metrics at /metrics on the web process", async () => {
      const res = await fetch(`${process.env.HERALD_TEST_BASE_URL}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/text\/plain/);
      const text = await res.text();
      for (const name of [
        "herald_queue_jobs",
        "herald_endpoints",
        "herald_deliveries{",
        "herald_deliveries_parked",
        "herald_cluster_deliveries_total",
        "process_resident_memory_bytes",
      ])
        expect(text).toContain(name);
      expect(text).toMatch(/herald_endpoints\{state="active",circuit="closed"\} \d+/);
    });
  });
});
