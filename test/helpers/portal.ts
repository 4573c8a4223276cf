import { newId } from "@/lib/ids";
import { requestJson } from "./http";
import { baseUrl, type Tenant } from "./tenant";

// Portal sessions for the integration suites: a magic link made through the operator API,
// exchanged like the portal page does, and an `api` that calls with the session as bearer.

export type PortalClient = Awaited<ReturnType<typeof portalSession>>;

export const call = (method: string, path: string, token: string | null, body?: unknown) =>
  requestJson(method, `${baseUrl()}/api/v1${path}`, token, body);

type LinkOptions = { readOnly?: boolean; featureFlags?: string[]; expiry?: number; capabilities?: string[] };

export async function portalLink(t: Tenant, app: string, opts: LinkOptions = {}) {
  const r = await t.api("POST", `/auth/app-portal-access/${app}`, opts);
  if (r.status !== 200) throw new Error(`portal access: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { url: string; token: string };
}

export async function portalSession(t: Tenant, app: string, opts: LinkOptions = {}) {
  const link = await portalLink(t, app, opts);
  const r = await call("POST", "/auth/portal-session", null, { token: link.token });
  if (r.status !== 200) throw new Error(`portal session: ${r.status} ${JSON.stringify(r.body)}`);
  const session = r.body.session as string;
  return { link, session, info: r.body, api: (method: string, path: string, body?: unknown) => call(method, path, session, body) };
}

/** A finished delivery with attempts, written directly (no worker): deterministic history for read models. */
export async function seedDelivery(
  t: Tenant,
  row: {
    appId: string;
    endpointId: string;
    messageId: string;
    eventType: string;
    status: "pending" | "sending" | "succeeded" | "failed" | "canceled";
    attempts: { ok: boolean; code: number; at?: Date }[];
    at?: Date;
  },
) {
  const at = row.at ?? new Date();
  const id = newId("delivery", at.getTime());
  const last = row.attempts[row.attempts.length - 1];
  await t.db.delivery.create({
    data: {
      id,
      environmentId: t.environmentId,
      applicationId: row.appId,
      endpointId: row.endpointId,
      messageId: row.messageId,
      eventType: row.eventType,
      status: row.status,
      attemptCount: row.attempts.length,
      lastAttemptAt: last ? (last.at ?? at) : null,
      lastStatusCode: last ? last.code : null,
      nextAttemptAt: row.status === "pending" ? new Date(Date.now() + 3600_000) : null,
      deadReason: row.status === "failed" ? "exhausted" : null,
      deadAt: row.status === "failed" ? at : null,
      createdAt: at,
    },
  });
  const attemptIds: string[] = [];
  for (const [i, a] of row.attempts.entries()) {
    const when = a.at ?? new Date(at.getTime() + i * 1000);
    const attemptId = newId("attempt", when.getTime());
    attemptIds.push(attemptId);
    await t.db.attempt.create({
      data: {
        id: attemptId,
        environmentId: t.environmentId,
        applicationId: row.appId,
        endpointId: row.endpointId,
        messageId: row.messageId,
        deliveryId: id,
        eventType: row.eventType,
        url: "https://hooks.example.com/seeded",
        status: a.ok ? "success" : "fail",
        requestHeaders: { "webhook-id": row.messageId, "webhook-signature": "v1,seeded" },
        requestBody: JSON.stringify({ seeded: true }),
        responseStatus: a.code,
        responseBody: a.ok ? "ok" : "nope",
        durationMs: 12,
        errorClass: a.code === 0 ? "timeout" : null,
        createdAt: when,
      },
    });
  }
  return { id, attemptIds };
}
