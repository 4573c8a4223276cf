import { mkdirSync } from "node:fs";
import { test as base, expect, type Page } from "@playwright/test";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { createApiKey } from "@/lib/environments/api-keys";
import { createEnvironment } from "@/lib/environments/ensure-environment";
import { requestJson } from "../test/helpers/http";

// API-based setup for the portal specs: a fresh operator tenant per test (its own environment
// and API key, made through lib/ because minting the first key is not an API operation), then
// applications, catalog, endpoints, messages and portal links through the public API, the way
// an operator would. No UI clicking for setup.

export const SCREENSHOTS = "e2e/artifacts/screenshots";

export function serverUrl(): string {
  return `http://127.0.0.1:${process.env.HERALD_E2E_PORT ?? 3900}`;
}

export const call = (method: string, path: string, token: string | null, body?: unknown) =>
  requestJson(method, `${serverUrl()}/api/v1${path}`, token, body);

export const CATALOG = [
  {
    name: "order.created",
    description: "A customer placed an order.",
    schemas: {
      "1": {
        type: "object",
        required: ["order_id", "amount"],
        properties: {
          order_id: { type: "string", examples: ["ord_e2e_1"] },
          amount: { type: "integer", examples: [4200] },
          currency: { type: "string", enum: ["EUR", "USD"] },
        },
      },
    },
  },
  {
    name: "order.paid",
    description: "An order's payment succeeded.",
    schemas: {
      "1": {
        type: "object",
        properties: { order_id: { type: "string" }, paid_at: { type: "string", format: "date-time" } },
        examples: [{ order_id: "ord_given_example", paid_at: "2026-01-02T03:04:05Z" }],
      },
    },
  },
  { name: "invoice.legacy_sent", description: "Old invoice event; use invoice.sent.", deprecated: true, schemas: { "1": { type: "object", properties: { invoice_id: { type: "string" } } } } },
  { name: "customer.retired", description: "No longer published.", archived: true },
  { name: "beta.feature_used", description: "Only for links with the beta flag.", featureFlag: "beta" },
];

export type Operator = Awaited<ReturnType<typeof createOperator>>;

/** A fresh tenant with its catalog; `api` calls the API with its operator key. */
export async function createOperator(name = "e2e") {
  const env = await createEnvironment(name);
  const { key } = await createApiKey(env.id, "e2e");
  const api = (method: string, path: string, body?: unknown) => call(method, path, key, body);
  for (const et of CATALOG) {
    const r = await api("POST", "/event-type", et);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }

  async function createApp(appName: string) {
    const r = await api("POST", "/app", { name: appName });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body as { id: string; name: string };
  }

  async function createEndpoint(appId: string, body: Record<string, unknown>) {
    const r = await api("POST", `/app/${appId}/endpoint`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body as { id: string; url: string };
  }

  async function publish(appId: string, eventType: string, payload: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    const r = await api("POST", `/app/${appId}/msg`, { eventType, payload, ...extra });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return r.body as { id: string };
  }

  /** A magic link (`…/portal#key=…`) and its token. */
  async function portalLink(appId: string, opts: { readOnly?: boolean; featureFlags?: string[]; expiry?: number; capabilities?: string[] } = {}) {
    const r = await api("POST", `/auth/app-portal-access/${appId}`, opts);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as { url: string; token: string };
  }

  /** Exchanges a link token for a session (what the portal page does), for API-level checks. */
  async function session(token: string) {
    const r = await call("POST", "/auth/portal-session", null, { token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.session as string;
  }

  return { environmentId: env.id, apiKey: key, api, createApp, createEndpoint, publish, portalLink, session };
}

/** Polls `fn` until it returns a truthy value (bounded: `tries` × `everyMs`). */
export async function until<T>(fn: () => Promise<T | null | undefined | false>, what: string, tries = 60, everyMs = 500): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Opens a magic link and waits for the portal's first page; the key must be gone from the URL. */
export async function openPortal(page: Page, link: string) {
  await page.goto(link);
  await page.waitForURL(/\/portal\/endpoints$/);
  await expect(page.getByRole("heading", { name: "Endpoints", level: 1 })).toBeVisible();
}

/**
 * Delivery history written straight to the database (deliveries and attempts at explicit past
 * times), for pages that need more, or older, history than a test can produce live. Messages
 * go through the API; the rows are what the delivery engine would have written.
 */
export async function seedHistory(
  op: Operator,
  appId: string,
  endpointId: string,
  items: { eventType: string; status: "succeeded" | "failed" | "pending"; codes: number[]; hoursAgo: number; eventId?: string }[],
) {
  const out: { deliveryId: string; msgId: string }[] = [];
  for (const it of items) {
    const msg = await op.publish(appId, it.eventType, { seeded: true, hoursAgo: it.hoursAgo }, it.eventId ? { eventId: it.eventId } : {});
    const at = Date.now() - it.hoursAgo * 3600_000;
    const deliveryId = newId("delivery", at);
    await db.delivery.create({
      data: {
        id: deliveryId,
        environmentId: op.environmentId,
        applicationId: appId,
        endpointId,
        messageId: msg.id,
        eventType: it.eventType,
        status: it.status,
        attemptCount: it.codes.length,
        lastStatusCode: it.codes[it.codes.length - 1] ?? null,
        lastAttemptAt: it.codes.length ? new Date(at) : null,
        nextAttemptAt: it.status === "pending" ? new Date(Date.now() + 3600_000) : null,
        deadReason: it.status === "failed" ? "exhausted" : null,
        deadAt: it.status === "failed" ? new Date(at) : null,
        createdAt: new Date(at),
      },
    });
    for (const [i, code] of it.codes.entries()) {
      await db.attempt.create({
        data: {
          id: newId("attempt", at + i * 1000),
          environmentId: op.environmentId,
          applicationId: appId,
          endpointId,
          messageId: msg.id,
          deliveryId,
          eventType: it.eventType,
          url: "https://hooks.example.com/seeded",
          status: code >= 200 && code < 300 ? "success" : "fail",
          requestHeaders: { "content-type": "application/json", "webhook-id": msg.id, "webhook-signature": "v1,c2VlZGVk" },
          requestBody: JSON.stringify({ seeded: true }),
          responseStatus: code,
          responseBody: code === 0 ? null : JSON.stringify({ answer: code }),
          durationMs: 40 + i,
          errorClass: code === 0 ? "timeout" : null,
          errorMessage: code === 0 ? "no answer within 15000 ms" : null,
          createdAt: new Date(at + i * 1000),
        },
      });
    }
    out.push({ deliveryId, msgId: msg.id });
  }
  return out;
}

/** Screenshots kept in the repository (docs/portal.md shows them); e2e/artifacts is not committed. */
export const DOC_SCREENSHOTS = "docs/screenshots";

export async function shot(page: Page, name: string, opts: { fullPage?: boolean; doc?: boolean } = {}) {
  const dir = opts.doc ? DOC_SCREENSHOTS : SCREENSHOTS;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: opts.fullPage ?? true });
}

export const test = base.extend<{ operator: Operator }>({
  // eslint-disable-next-line no-empty-pattern
  operator: async ({}, provide) => {
    await provide(await createOperator());
  },
});
export { expect };
